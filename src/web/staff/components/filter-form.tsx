import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { type FormEvent, type ReactNode, useId, useState } from 'react';

/** One filter field's label and input type (a native `type`, e.g. `search` or `date`, and a keyboard hint). */
export interface FilterFieldSpec {
  label: string;
  type?: string;
  inputMode?: 'decimal';
}

/** Props of {@link FilterFields}: the filter keys in order, their fields, the select ones' choices, the draft values. */
export interface FilterFieldsProps<Key extends string> {
  keys: readonly Key[];
  fields: Record<Key, FilterFieldSpec>;
  /** The choices of each select filter: value and label; an "Any" choice ('') comes first. */
  options: Partial<Record<Key, [string, string][]>>;
  values: Record<Key, string>;
  onChange: (values: Record<Key, string>) => void;
}

/**
 * The fields of a staff list's filters (issues #21 and #22: the donations' and the plans' forms), one per key, in
 * order: a text, date or search field, or a NATIVE select (the browser's own control for keyboard and screen readers)
 * with "Any" first. The search field `q` spans the whole row. Labels always shrink so a date field's format never
 * hides them.
 */
export function FilterFields<Key extends string>({ keys, fields, options, values, onChange }: FilterFieldsProps<Key>) {
  return keys.map((key) => {
    const choices = options[key];
    const field = fields[key];
    return (
      <TextField
        key={key}
        name={key}
        size="small"
        label={field.label}
        type={choices ? undefined : field.type}
        value={values[key]}
        onChange={(event) => onChange({ ...values, [key]: event.target.value })}
        select={choices !== undefined}
        sx={key === 'q' ? { gridColumn: '1 / -1' } : undefined}
        slotProps={{
          select: { native: true },
          inputLabel: { shrink: true },
          htmlInput: field.inputMode ? { inputMode: field.inputMode } : undefined,
        }}
      >
        {choices && [
          <option key="" value="">
            Any
          </option>,
          ...choices.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          )),
        ]}
      </TextField>
    );
  });
}

/**
 * The filled fields of an uncontrolled filter form as a page's query: each of `names` whose value, trimmed, is not
 * empty (an empty field is no filter). Used by FilterForm's `onSubmit` on the audit, donors and mail pages.
 */
export function filledFields(form: HTMLFormElement, names: readonly string[]): URLSearchParams {
  const data = new FormData(form);
  const query = new URLSearchParams();
  for (const name of names) {
    const value = String(data.get(name) ?? '').trim();
    if (value) query.set(name, value);
  }
  return query;
}

/** Props of {@link FilterForm}: its accessible name, what submitting and "Clear" do, and its fields. */
export interface FilterFormProps {
  /** The search landmark's name, e.g. "Filter donations". */
  label: string;
  /** Called with the form element (uncontrolled forms read their fields from it). */
  onSubmit: (form: HTMLFormElement) => void;
  onClear: () => void;
  /** The narrowest a column of fields may be, in rem (default 11). */
  columnMinRem?: number;
  children: ReactNode;
}

/**
 * A staff list's filter form (issues #21 and #22: donations, plans, donors, mail): a search landmark whose fields flow into as many columns as fit
 * (one at 320 px, WCAG 1.4.10), then "Apply filters" (submit, also by Enter in a field) and "Clear". On a phone (below
 * MUI's `sm`, 600 px) the form folds behind a "Filters" button (issue #36, part 3; a disclosure: `aria-expanded`,
 * `aria-controls`), so the list comes first; from `sm` up the button is not shown and the form always is. Both are
 * chosen by CSS alone, so nothing moves once the page has drawn.
 */
export function FilterForm({ label, onSubmit, onClear, columnMinRem = 11, children }: FilterFormProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(event.currentTarget);
  };
  return (
    <>
    <Button
      variant="outlined"
      aria-expanded={open}
      aria-controls={id}
      onClick={() => setOpen(!open)}
      sx={{ display: { xs: 'inline-flex', sm: 'none' }, mb: 2 }}
    >
      Filters
    </Button>
    <Box
      component="form"
      id={id}
      role="search"
      aria-label={label}
      onSubmit={submit}
      sx={{ display: { xs: open ? 'grid' : 'none', sm: 'grid' }, gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, ${columnMinRem}rem), 1fr))`, gap: 1.5, mb: 2 }}
    >
      {children}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button type="submit" variant="contained">
          Apply filters
        </Button>
        <Button type="button" onClick={onClear}>
          Clear
        </Button>
      </Box>
    </Box>
    </>
  );
}
