import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_AUDIT_ACTIONS,
  DONATION_AUDIT_ACTIONS,
  DONOR_AUDIT_ACTIONS,
  MAIL_AUDIT_ACTIONS,
  PLAN_AUDIT_ACTIONS,
  PLAN_CHANGE_AUDIT_ACTIONS,
} from '../../../../shared/staff/audit-actions';
import { IDENTITY_AUDIT_ACTIONS } from '../../../../shared/staff/identity-api';
import { auditSentence } from './audit-sentence';

/** Every staff action the audit log can hold (issue #36, part 3: "no raw codes on screen"). */
const EVERY_ACTION = [
  ...Object.values(IDENTITY_AUDIT_ACTIONS),
  ...Object.values(DONATION_AUDIT_ACTIONS),
  ...Object.values(PLAN_CHANGE_AUDIT_ACTIONS),
  ...Object.values(PLAN_AUDIT_ACTIONS),
  ...Object.values(DONOR_AUDIT_ACTIONS),
  ...Object.values(MAIL_AUDIT_ACTIONS),
  ...Object.values(CAMPAIGN_AUDIT_ACTIONS),
];

const staffEntry = (action: string, details: Record<string, unknown> = {}) => ({ action, actorType: 'staff', actorEmail: 'ana@example.org', details });

describe('audit entries as sentences', () => {
  it('reads the example of the issue: a donor-wide correction with the donor, both addresses and who', () => {
    const { sentence, details } = auditSentence(
      staffEntry(DONOR_AUDIT_ACTIONS.emailCorrected, { previousEmail: 'm@exmaple.org', email: 'm@example.org', donationIds: ['a', 'b'], planIds: [] }),
      'Margaret Okonkwo',
    );
    expect(sentence).toBe('Margaret Okonkwo’s e-mail corrected from m@exmaple.org to m@example.org on every gift, receipt and plan by ana@example.org');
    expect(details).toEqual([
      ['Old e-mail', 'm@exmaple.org'],
      ['E-mail', 'm@example.org'],
      ['Gifts changed', 'a; b'],
      ['Plans changed', 'None'],
    ]);
  });

  it('has a sentence of its own for every action, naming who, with no code in it', () => {
    for (const action of EVERY_ACTION) {
      const { sentence } = auditSentence(staffEntry(action));
      expect(sentence, action).not.toContain(action);
      expect(sentence, action).not.toMatch(/[a-z]+[._][a-z]+_/);
      expect(sentence.length, action).toBeGreaterThan(10);
    }
  });

  it('writes cents as dollars, plan states and booleans in words, and an operator request with its answer', () => {
    const change = auditSentence(staffEntry(PLAN_CHANGE_AUDIT_ACTIONS.change_amount, { before: { amountCents: 3000, status: 'active' }, after: { amountCents: 4500, status: 'active' } }));
    expect(change.sentence).toBe('Plan amount changed from $30.00 to $45.00 by ana@example.org');
    expect(change.details).toEqual([
      ['Before', 'Amount: $30.00, Status: active'],
      ['After', 'Amount: $45.00, Status: active'],
    ]);
    expect(auditSentence(staffEntry(PLAN_CHANGE_AUDIT_ACTIONS.cancel, { refundLastCharge: true })).details).toEqual([['Last charge refunded', 'Yes']]);
    const operator = auditSentence({ action: 'POST /api/admin/donations/:id/refund', actorType: 'operator', actorEmail: null, target: 'id=1&amount=12.5', statusCode: 404, details: null });
    expect(operator.sentence).toBe('Request POST /api/admin/donations/:id/refund by the operator (API token) answered 404');
    expect(operator.details).toEqual([
      ['Request', 'id=1&amount=12.5'],
      ['HTTP status', '404'],
    ]);
    expect(auditSentence({ action: 'something.new_here', actorType: 'system', actorEmail: null }).sentence).toBe('Something new here by the system');
  });
});
