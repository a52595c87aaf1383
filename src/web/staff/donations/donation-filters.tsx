import { useState } from 'react';
import { CAUSE_DETAILS, CAUSES } from '../../../shared/causes';
import { FREQUENCIES, FREQUENCY_LABELS } from '../../../shared/frequencies';
import { PAYMENT_METHOD_LABELS } from '../../../shared/offline-gifts';
import { FilterFields, FilterForm, type FilterFieldSpec } from '../components/filter-form';
import { DONATION_STATUS_LABELS, GATEWAY_LABELS, MODE_LABELS } from '../components/donation-labels';
import { DONATION_FILTER_KEYS, type DonationFilterKey, type DonationFilters } from './donations-query';

/** The choices of each select filter: value and label ('' = any). */
const SELECT_OPTIONS: Partial<Record<DonationFilterKey, [string, string][]>> = {
  status: Object.entries(DONATION_STATUS_LABELS),
  frequency: FREQUENCIES.map((frequency) => [frequency, FREQUENCY_LABELS[frequency]]),
  cause: CAUSES.map((cause) => [cause, CAUSE_DETAILS[cause].displayName]),
  gateway: Object.entries(GATEWAY_LABELS),
  mode: Object.entries(MODE_LABELS),
  paymentMethod: Object.entries(PAYMENT_METHOD_LABELS),
};

/** Each filter field's label and input type. */
const FIELDS: Record<DonationFilterKey, FilterFieldSpec> = {
  q: { label: 'Search name, e-mail, receipt or payment id', type: 'search' },
  from: { label: 'From date', type: 'date' },
  to: { label: 'To date', type: 'date' },
  status: { label: 'Status' },
  frequency: { label: 'Frequency' },
  cause: { label: 'Cause' },
  gateway: { label: 'Gateway' },
  mode: { label: 'Test or live' },
  paymentMethod: { label: 'Payment method' },
  amountMin: { label: 'Amount from ($)', inputMode: 'decimal' },
  amountMax: { label: 'Amount to ($)', inputMode: 'decimal' },
  campaign: { label: 'Campaign' },
};

/** No filter at all. */
export const NO_FILTERS = Object.fromEntries(DONATION_FILTER_KEYS.map((key) => [key, ''])) as DonationFilters;

/**
 * The donations page's filters and search box (issue #21): date range, status, frequency, cause, gateway, test or live,
 * amount range in dollars, the campaign (issue #23), and `q`. The fields start from the URL's view; "Apply" hands them to `onApply` (which puts
 * them in the URL, page 1), "Clear" empties them. Native selects: keyboard and screen readers use them as the browser's
 * own control.
 */
export function DonationFiltersForm({ filters, onApply }: { filters: DonationFilters; onApply: (filters: DonationFilters) => void }) {
  // NOTE: the page keys this form by its URL's query, so Back or a link starts it afresh from the URL's filters.
  const [draft, setDraft] = useState(filters);
  return (
    <FilterForm label="Filter donations" onSubmit={() => onApply(draft)} onClear={() => onApply(NO_FILTERS)}>
      <FilterFields keys={DONATION_FILTER_KEYS} fields={FIELDS} options={SELECT_OPTIONS} values={draft} onChange={setDraft} />
    </FilterForm>
  );
}
