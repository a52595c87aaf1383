import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useId, useState } from 'react';
import { CAUSE_DETAILS, CAUSES } from '../../../shared/causes';
import { FREQUENCIES, FREQUENCY_LABELS } from '../../../shared/frequencies';
import type { StaffCampaign, StaffCampaignInputFields } from '../../../shared/staff/campaigns-api';
import { StaffApiError } from '../api/staff-fetch';
import { saveCampaign } from './campaigns-api';
import { DialogError, DialogFooter } from '../components/dialog-footer';

/** The form's text fields, as typed. */
interface Typed {
  slug: string;
  titleEn: string;
  descriptionEn: string;
  titleEs: string;
  descriptionEs: string;
  goal: string;
  startsAt: string;
  endsAt: string;
  presetAmount: string;
  presetFrequency: string;
  presetCause: string;
}

/** The typed fields of `campaign` (empty for a new one). */
function typedOf(campaign: StaffCampaign | undefined): Typed {
  const fields = campaign?.fields;
  return {
    slug: fields?.slug ?? '',
    titleEn: fields?.texts.en?.title ?? '',
    descriptionEn: fields?.texts.en?.description ?? '',
    titleEs: fields?.texts.es?.title ?? '',
    descriptionEs: fields?.texts.es?.description ?? '',
    goal: fields?.goal ?? '',
    startsAt: fields?.startsAt ?? '',
    endsAt: fields?.endsAt ?? '',
    presetAmount: fields?.presetAmount ?? '',
    presetFrequency: fields?.presetFrequency ?? '',
    presetCause: fields?.presetCause ?? '',
  };
}

/** The body of the typed fields and boxes (an empty field is none). */
function bodyOf(typed: Typed, showSupporters: boolean, published: boolean): StaffCampaignInputFields {
  const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    slug: typed.slug.trim(),
    texts: {
      en: { title: typed.titleEn, description: typed.descriptionEn },
      ...(typed.titleEs.trim() ? { es: { title: typed.titleEs, description: typed.descriptionEs } } : {}),
    },
    goal: orNull(typed.goal),
    startsAt: orNull(typed.startsAt),
    endsAt: orNull(typed.endsAt),
    presetAmount: orNull(typed.presetAmount),
    presetFrequency: orNull(typed.presetFrequency) as StaffCampaignInputFields['presetFrequency'],
    presetCause: orNull(typed.presetCause) as StaffCampaignInputFields['presetCause'],
    showSupporters,
    published,
  };
}

/** Where each API field error shows: the form field of its path. */
const ERROR_FIELDS: Record<string, keyof Typed> = {
  slug: 'slug',
  'texts.en.title': 'titleEn',
  'texts.en': 'titleEn',
  'texts.en.description': 'descriptionEn',
  'texts.es.title': 'titleEs',
  'texts.es.description': 'descriptionEs',
  goal: 'goal',
  startsAt: 'startsAt',
  endsAt: 'endsAt',
  presetAmount: 'presetAmount',
  presetFrequency: 'presetFrequency',
  presetCause: 'presetCause',
};

/**
 * The form that creates a campaign or edits `campaign` (issue #34, "Staff run campaigns"), in a dialog: slug, title and
 * description in English (required title) and Spanish (optional: the page falls back to English), goal in dollars,
 * start and end (date and time in `timeZone`), the link's preselected amount, frequency and cause, the supporters' list
 * and "Published". The server checks every field; its field errors show under their fields (announced).
 * `onSaved` gets the campaign's id.
 */
export function CampaignDialog({ campaign, timeZone, onSaved, onClose }: { campaign?: StaffCampaign; timeZone: string; onSaved: (id: string) => void; onClose: () => void }) {
  const id = useId();
  const [typed, setTyped] = useState<Typed>(() => typedOf(campaign));
  const [showSupporters, setShowSupporters] = useState(campaign?.fields.showSupporters ?? false);
  const [published, setPublished] = useState(campaign?.fields.published ?? false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof Typed, string>>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      const saved = await saveCampaign(bodyOf(typed, showSupporters, published), campaign?.id);
      onSaved(saved.id);
    } catch (caught) {
      const refused = caught instanceof StaffApiError ? caught : undefined;
      const errors: Partial<Record<keyof Typed, string>> = {};
      for (const [path, message] of Object.entries(refused?.fieldErrors ?? {})) {
        const field = ERROR_FIELDS[path];
        if (field) errors[field] = message;
      }
      setFieldErrors(errors);
      setError(refused?.message ?? 'The campaign could not be saved.');
      setBusy(false);
    }
  };

  const field = (name: keyof Typed, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      name={name}
      label={label}
      value={typed[name]}
      onChange={(event) => setTyped((before) => ({ ...before, [name]: event.target.value }))}
      error={fieldErrors[name] !== undefined}
      helperText={fieldErrors[name] ?? extra.helperText}
      fullWidth
      margin="dense"
      {...extra}
      slotProps={{ inputLabel: { shrink: true }, ...extra.slotProps }}
    />
  );
  const select = (name: 'presetFrequency' | 'presetCause', label: string, options: [string, string][]) =>
    field(name, label, {
      select: true,
      slotProps: { select: { native: true }, inputLabel: { shrink: true } },
      children: [['', 'None'], ...options].map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      )),
    });

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={`${id}-title`}>{campaign ? 'Edit the campaign' : 'New campaign'}</DialogTitle>
        <DialogContent>
          {field('slug', 'Slug', {
            required: true,
            // NOTE: read-only rather than disabled: a disabled field's help text is too faint to read (WCAG 1.4.3).
            slotProps: { htmlInput: { readOnly: campaign?.slugFixed === true }, inputLabel: { shrink: true } },
            helperText: campaign?.slugFixed ? 'A gift has recorded this campaign: its slug is fixed.' : 'Letters, digits and dashes: the link is /donate?campaign=<slug>.',
          })}
          {field('titleEn', 'Title (English)', { required: true })}
          {field('descriptionEn', 'Description (English)', { multiline: true, minRows: 2 })}
          {field('titleEs', 'Title (Spanish)', { helperText: 'Leave empty to show the English.' })}
          {field('descriptionEs', 'Description (Spanish)', { multiline: true, minRows: 2 })}
          {field('goal', 'Goal in dollars', { helperText: 'Leave empty for no goal.', slotProps: { htmlInput: { inputMode: 'decimal' } } })}
          {field('startsAt', `Starts (${timeZone})`, { type: 'datetime-local', helperText: 'Leave empty to open at once.' })}
          {field('endsAt', `Ends (${timeZone})`, { type: 'datetime-local', helperText: 'Leave empty for no end.' })}
          {field('presetAmount', 'Preselected amount in dollars', { slotProps: { htmlInput: { inputMode: 'decimal' } } })}
          {select('presetFrequency', 'Preselected frequency', FREQUENCIES.map((value): [string, string] => [value, FREQUENCY_LABELS[value]]))}
          {select('presetCause', 'Preselected cause', CAUSES.map((value): [string, string] => [value, CAUSE_DETAILS[value].displayName]))}
          <FormControlLabel control={<Checkbox checked={showSupporters} onChange={(event) => setShowSupporters(event.target.checked)} />} label="Show the supporters' list" />
          <FormControlLabel control={<Checkbox checked={published} onChange={(event) => setPublished(event.target.checked)} />} label="Published (a draft's link is unknown to donors)" />
          <DialogError message={error} />
          <Typography variant="body2" sx={{ mt: 1 }}>
            Every change is recorded in the audit log.
          </Typography>
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy}>
          <Button type="submit" variant="contained" disabled={busy}>
            {campaign ? 'Save the campaign' : 'Create the campaign'}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
