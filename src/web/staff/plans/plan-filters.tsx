import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { CAUSE_DETAILS, CAUSES } from '../../../shared/causes';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import { STAFF_PLAN_FREQUENCIES } from '../../../shared/staff/plans-api';
import { FilterFields, FilterForm, type FilterFieldSpec } from '../components/filter-form';
import { PLAN_STATUS_LABELS } from '../components/plan-labels';
import { PLAN_FILTER_KEYS, PLAN_ORDERS, type PlanFilterKey, type PlanFilters, type PlanOrder } from './plans-query';

/** The choices of each select filter: value and label ('' = any). */
const SELECT_OPTIONS: Partial<Record<PlanFilterKey, [string, string][]>> = {
  status: Object.entries(PLAN_STATUS_LABELS),
  frequency: STAFF_PLAN_FREQUENCIES.map((frequency) => [frequency, FREQUENCY_LABELS[frequency]]),
  cause: CAUSES.map((cause) => [cause, CAUSE_DETAILS[cause].displayName]),
};

/** Each filter field's label and input type. */
const FIELDS: Record<PlanFilterKey, FilterFieldSpec> = {
  q: { label: 'Search name, e-mail or first receipt', type: 'search' },
  status: { label: 'Status' },
  frequency: { label: 'Frequency' },
  cause: { label: 'Cause' },
  nextFrom: { label: 'Next charge from', type: 'date' },
  nextTo: { label: 'Next charge to', type: 'date' },
  amountMin: { label: 'Amount from ($)', inputMode: 'decimal' },
  amountMax: { label: 'Amount to ($)', inputMode: 'decimal' },
};

/** Each order in words. */
const ORDER_LABELS: Record<PlanOrder, string> = {
  'next_charge:asc': 'Next charge, soonest first',
  'next_charge:desc': 'Next charge, latest first',
  'amount:desc': 'Amount, largest first',
  'amount:asc': 'Amount, smallest first',
  'created:desc': 'Newest plans first',
  'created:asc': 'Oldest plans first',
};

/** No filter at all. */
const NO_FILTERS = Object.fromEntries(PLAN_FILTER_KEYS.map((key) => [key, ''])) as PlanFilters;

/** Props of {@link PlanFiltersForm}: the URL's filters and order, and what to do with the ones applied. */
export interface PlanFiltersFormProps {
  filters: PlanFilters;
  order: PlanOrder;
  onApply: (filters: PlanFilters, order: PlanOrder) => void;
}

/**
 * The plans page's filters, order and search box (issue #22): status, frequency, cause, next charge between two dates,
 * amount range in dollars, `q`. The fields start from the URL's view; "Apply" hands them to `onApply` (which puts them
 * in the URL, page 1), "Clear" empties the filters. Native selects, as the donations page's.
 */
export function PlanFiltersForm({ filters, order, onApply }: PlanFiltersFormProps) {
  // NOTE: the page keys this form by its URL's query, so Back or a link starts it afresh from the URL's filters.
  const [draft, setDraft] = useState(filters);
  const [draftOrder, setDraftOrder] = useState(order);
  return (
    <FilterForm label="Filter plans" onSubmit={() => onApply(draft, draftOrder)} onClear={() => onApply(NO_FILTERS, PLAN_ORDERS[0])}>
      <FilterFields keys={PLAN_FILTER_KEYS} fields={FIELDS} options={SELECT_OPTIONS} values={draft} onChange={setDraft} />
      <TextField
        name="order"
        size="small"
        label="Order"
        select
        value={draftOrder}
        onChange={(event) => setDraftOrder(event.target.value as PlanOrder)}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {PLAN_ORDERS.map((value) => (
          <option key={value} value={value}>
            {ORDER_LABELS[value]}
          </option>
        ))}
      </TextField>
    </FilterForm>
  );
}
