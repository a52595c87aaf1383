import Stack from '@mui/material/Stack';
import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { expiryMonthOptions, expiryYearOptions } from '../../../shared/card';
import {
  type DonationFormValues,
  DonationFormSchema,
  type DonationSelection,
  EMPTY_DONATION_FORM,
  toDonationSubmission,
} from '../../../shared/donation';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { processDonation } from '../../api/process-donation';
import { CardNumberField } from './card-number-field';
import { CvvField } from './cvv-field';
import { DonationFormLayout, FULL_ROW } from './donation-form-layout';
import { ExpirySelectField } from './expiry-select-field';
import { FormTextField } from './form-text-field';
import { useDonationSubmit } from './use-donation-submit';
import { feeCoverageCharge } from './fee-coverage-charge';
import { rememberedCampaign } from '../../state/campaign-memory';
import { useTranslation } from '../../i18n/use-translation';

/** Nothing to start before the form is validated: the card is one of the form's own fields. */
const startNothing = () => undefined;

/**
 * The donation form in test mode (spec sections 2, 4 and 5; issue #11 keeps it as it is): the spec's own card
 * fields, validated with the shared DonationFormSchema; a valid submit sends `toDonationSubmission(selection,
 * values)` to process-donation (see useDonationSubmit for what follows), with the donor's `coverFee` and the
 * campaign of their link (issue #23); the submit button names the total.
 */
export function CardDonationForm({ selection, coverFee }: { selection: DonationSelection; coverFee: boolean }) {
  const { i18n, locale } = useTranslation();
  const form = useForm({
    resolver: zodResolver(DonationFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_DONATION_FORM,
  });
  const submit = useDonationSubmit({
    form,
    emptyValues: EMPTY_DONATION_FORM,
    start: startNothing,
    pay: (values: DonationFormValues, _started, keyFor) => {
      const submission = toDonationSubmission(selection, values, { coverFee, campaign: rememberedCampaign(), locale });
      return processDonation(submission, keyFor(submission));
    },
  });
  const yearOptions = useMemo(() => expiryYearOptions(), []);
  const monthOptions = useMemo(() => expiryMonthOptions(locale), [locale]);

  // 'Card has expired' sits on the month; re-check it when the year changes once a month is chosen.
  const recheckMonth = () => {
    if (form.getValues('expiryMonth') !== '') void form.trigger('expiryMonth');
  };

  const payment = (
    <>
      <Stack sx={FULL_ROW}>
        <CardNumberField />
      </Stack>
      <FormTextField name="cardholderName" label={i18n._('card.cardholderName')} autoComplete="cc-name" required sx={FULL_ROW}
        slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
      <ExpirySelectField name="expiryMonth" label={i18n._('card.expiryMonth')} autoComplete="cc-exp-month"
        options={monthOptions} />
      <ExpirySelectField name="expiryYear" label={i18n._('card.expiryYear')} autoComplete="cc-exp-year"
        options={yearOptions} onPicked={recheckMonth} />
      <CvvField />
    </>
  );
  return <DonationFormLayout form={form} amountDollars={feeCoverageCharge(selection.amount, coverFee).totalDollars} payment={payment} paymentReady {...submit} />;
}
