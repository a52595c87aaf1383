import { describe, expect, it } from 'vitest';
import { DonationDetailsSchema, EMPTY_DONATION_FORM } from '../../../../shared/donation';
import { DonorDetailsFormSchema, EMPTY_DONOR_DETAILS_FORM, toCardlessSubmission } from './donor-details-form';

const selection = { amount: 25, frequency: 'monthly', cause: 'research-science' } as const;
const values = { ...EMPTY_DONOR_DETAILS_FORM, donorName: 'Marisol Chan', donorEmail: 'marisol@example.org', city: 'Belize City' };

describe('the Stripe-mode form values (issue #11)', () => {
  it('are the test-mode form values without a card field', () => {
    expect(Object.keys(EMPTY_DONOR_DETAILS_FORM)).toEqual(['donorName', 'donorEmail', 'donorPhone', 'street', 'city', 'state', 'zipCode', 'country', 'message', 'isAnonymous', 'tribute']);
    expect(Object.keys(DonorDetailsFormSchema.shape)).toEqual(Object.keys(EMPTY_DONOR_DETAILS_FORM));
    const card = { cardNumber: '', cardholderName: '', expiryMonth: '', expiryYear: '', cvv: '' };
    expect({ ...EMPTY_DONOR_DETAILS_FORM, ...card }).toEqual(EMPTY_DONATION_FORM);
  });

  it("keep test mode's rules and messages", () => {
    const result = DonorDetailsFormSchema.safeParse({ ...EMPTY_DONOR_DETAILS_FORM, donorName: 'M', donorEmail: 'nope' });
    expect(result.error?.issues.map(({ path, message }) => [path.join('.'), message])).toEqual([
      ['donorName', 'Name must be at least 2 characters'],
      ['donorEmail', 'Please enter a valid email address'],
    ]);
    expect(DonorDetailsFormSchema.safeParse(values).success).toBe(true);
  });

  it('become a submission without any card data, whose details create-payment-intent accepts', () => {
    const submission = toCardlessSubmission(selection, values);
    expect(submission).not.toHaveProperty('creditCard');
    expect(submission).toMatchObject({ amount: 25, frequency: 'monthly', cause: 'research-science', donorName: 'Marisol Chan', paymentMethod: 'credit_card' });
    // The donor's fee choice goes beside the details, as create-payment-intent's `coverFee` (issue #23).
    const { amount: _amount, coverFee, ...details } = submission;
    expect(coverFee).toBe(false);
    expect(DonationDetailsSchema.safeParse(details).success).toBe(true);
  });

  it('carry the fee choice and the campaign given (issue #23)', () => {
    const submission = toCardlessSubmission(selection, values, { coverFee: true, campaign: 'spring-appeal' });
    expect(submission).toMatchObject({ coverFee: true, campaign: 'spring-appeal' });
    expect(toCardlessSubmission(selection, values, { campaign: null })).not.toHaveProperty('campaign');
  });
});
