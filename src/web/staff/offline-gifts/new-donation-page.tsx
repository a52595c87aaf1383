import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { CAUSE_DETAILS, CAUSES } from '../../../shared/causes';
import { centsOfDollarText, OFFLINE_METHODS, PAYMENT_METHOD_LABELS, type OfflineGiftRequest } from '../../../shared/offline-gifts';
import { STAFF_API } from '../../../shared/staff/paths';
import type { StaffDonorRow } from '../../../shared/staff/donors-api';
import { StaffApiError } from '../api/staff-fetch';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffSession } from '../identity/session/staff-session-context';
import { donationPagePath } from '../staff-paths';
import { importOfflineCsv, recordOfflineGift, searchDonors, type ImportAnswer, type ImportError } from '../api/offline-gifts-api';

/** The form's fields as typed (every one text; the amount in dollars). */
interface Typed {
  method: string;
  reference: string;
  receivedOn: string;
  amount: string;
  name: string;
  email: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  cause: string;
  campaign: string;
  honoree: string;
  dedication: string;
  note: string;
}

const EMPTY: Typed = {
  method: 'cheque',
  reference: '',
  receivedOn: '',
  amount: '',
  name: '',
  email: '',
  street: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
  cause: CAUSES[0],
  campaign: '',
  honoree: '',
  dedication: '',
  note: '',
};

/** Where each API field error shows. */
const ERROR_FIELDS: Record<string, keyof Typed> = {
  method: 'method',
  reference: 'reference',
  receivedOn: 'receivedOn',
  amountCents: 'amount',
  'donor.name': 'name',
  'donor.email': 'email',
  'donor.address.street': 'street',
  'donor.address.city': 'city',
  'donor.address.state': 'state',
  'donor.address.zipCode': 'zipCode',
  'donor.address.country': 'country',
  cause: 'cause',
  campaign: 'campaign',
  'tribute.honoreeName': 'honoree',
  'tribute.type': 'dedication',
  note: 'note',
};

/** The request of the typed form (empty optional fields left out). */
function requestOf(typed: Typed, sendReceipt: boolean, confirmDuplicate: boolean): OfflineGiftRequest {
  const optional = (value: string) => (value.trim() === '' ? undefined : value);
  const address = { street: optional(typed.street), city: optional(typed.city), state: optional(typed.state), zipCode: optional(typed.zipCode), country: optional(typed.country) };
  const hasAddress = Object.values(address).some((value) => value !== undefined);
  return {
    method: typed.method as OfflineGiftRequest['method'],
    reference: optional(typed.reference),
    receivedOn: typed.receivedOn,
    amountCents: centsOfDollarText(typed.amount),
    donor: { name: typed.name, email: optional(typed.email), ...(hasAddress ? { address } : {}) },
    cause: typed.cause as OfflineGiftRequest['cause'],
    campaign: optional(typed.campaign)?.trim().toLowerCase(),
    tribute: typed.dedication ? { type: typed.dedication as 'honor' | 'memory', honoreeName: typed.honoree } : undefined,
    note: optional(typed.note),
    sendReceipt,
    ...(confirmDuplicate ? { confirmDuplicate } : {}),
  };
}

/**
 * `/staff/donations/new` (issue #37; finance and admin): record a gift received outside the site (method, reference, day
 * received, amount, donor picked by search or typed, cause, campaign, dedication, note, whether to e-mail the receipt),
 * saved once however often the button is pressed (one Idempotency-Key per gift); a likely duplicate asks first. Below,
 * the CSV import: the template, a file checked row by row, then recorded all or none.
 */
export function NewDonationPage() {
  const { can } = useStaffSession();
  if (!can('offline_gifts')) {
    return (
      <StaffPage title="Record a gift">
        <Alert severity="info">Your role can read donations but not record them. Ask a finance or admin member.</Alert>
      </StaffPage>
    );
  }
  return (
    <StaffPage title="Record a gift">
      <GiftForm />
      <CsvImport />
    </StaffPage>
  );
}

/** The one-gift form. */
function GiftForm() {
  const id = useId();
  const [typed, setTyped] = useState<Typed>(EMPTY);
  const [sendReceipt, setSendReceipt] = useState(true);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [duplicate, setDuplicate] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof Typed, string>>>({});
  const [recorded, setRecorded] = useState<{ donationId: string; receiptNumber: string; receiptEmailed: boolean }>();
  const [matches, setMatches] = useState<StaffDonorRow[]>([]);
  const [search, setSearch] = useState('');

  const set = (name: keyof Typed) => (event: ChangeEvent<HTMLInputElement>) => {
    setTyped((before) => ({ ...before, [name]: event.target.value }));
    // A changed gift is another gift: a new key, and any duplicate question asked again.
    setKey(crypto.randomUUID());
    setDuplicate(false);
  };

  const lookUp = async () => {
    if (search.trim().length < 2) return;
    try {
      setMatches((await searchDonors(search.trim())).rows);
    } catch {
      setMatches([]);
    }
  };
  const pick = (donor: StaffDonorRow) => {
    setTyped((before) => ({ ...before, name: donor.names[0] ?? '', email: donor.email }));
    setMatches([]);
    setKey(crypto.randomUUID());
  };

  const submit = async (event: FormEvent, confirm = false) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      const answer = await recordOfflineGift(requestOf(typed, sendReceipt, confirm), key);
      setRecorded(answer);
      setTyped(EMPTY);
      setDuplicate(false);
      setKey(crypto.randomUUID());
    } catch (caught) {
      const refused = caught instanceof StaffApiError ? caught : undefined;
      if (refused?.code === 'likely_duplicate') {
        setDuplicate(true);
      } else {
        const errors: Partial<Record<keyof Typed, string>> = {};
        for (const [path, message] of Object.entries(refused?.fieldErrors ?? {})) {
          const field = ERROR_FIELDS[path];
          if (field) errors[field] = message;
        }
        setFieldErrors(errors);
      }
      setError(refused?.message ?? 'The gift could not be recorded.');
    }
    setBusy(false);
  };

  const field = (name: keyof Typed, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      id={`${id}-${name}`}
      name={name}
      label={label}
      value={typed[name]}
      onChange={set(name)}
      error={fieldErrors[name] !== undefined}
      helperText={fieldErrors[name] ?? extra.helperText}
      fullWidth
      margin="dense"
      {...extra}
      slotProps={{ inputLabel: { shrink: true }, ...extra.slotProps }}
    />
  );
  const select = (name: keyof Typed, label: string, options: [string, string][]) =>
    field(name, label, {
      select: true,
      slotProps: { select: { native: true }, inputLabel: { shrink: true } },
      children: options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      )),
    });

  return (
    <Box component="section" aria-labelledby={`${id}-heading`} sx={{ mb: 4, maxWidth: 720 }}>
      <Typography component="h2" variant="h5" id={`${id}-heading`} sx={{ mb: 1 }}>
        A gift received by cheque, cash or transfer
      </Typography>
      {recorded ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          Recorded with receipt {recorded.receiptNumber}
          {recorded.receiptEmailed ? ', e-mailed to the donor' : ' (not e-mailed)'}.{' '}
          <StaffLink to={donationPagePath(recorded.donationId)}>Open the donation</StaffLink> to download its receipt or void it.
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField
          id={`${id}-search`}
          label="Find a donor (name or e-mail)"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void lookUp();
            }
          }}
          margin="dense"
          sx={{ flex: '1 1 14rem' }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button variant="outlined" onClick={() => void lookUp()}>
          Search donors
        </Button>
      </Box>
      {matches.length > 0 ? (
        <List aria-label="Donors found" dense>
          {matches.map((donor) => (
            <ListItem key={donor.donorKey} disablePadding>
              <ListItemButton onClick={() => pick(donor)}>
                <ListItemText primary={donor.names[0] ?? 'No name'} secondary={donor.email || 'No e-mail'} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Record a gift">
        {select('method', 'Method', OFFLINE_METHODS.map((method) => [method, PAYMENT_METHOD_LABELS[method]]))}
        {field('reference', 'Reference (cheque number, bank reference; optional)')}
        {field('receivedOn', 'Date received', { type: 'date', required: true })}
        {field('amount', 'Amount in dollars', { required: true, slotProps: { htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } } })}
        {field('name', "Donor's name", { required: true, autoComplete: 'off' })}
        {field('email', "Donor's e-mail (optional)", { type: 'email', autoComplete: 'off' })}
        {field('street', 'Street (optional)')}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, '& > *': { flex: '1 1 10rem' } }}>
          {field('city', 'City')}
          {field('state', 'State')}
          {field('zipCode', 'ZIP code')}
          {field('country', 'Country')}
        </Box>
        {select('cause', 'Cause', CAUSES.map((cause) => [cause, CAUSE_DETAILS[cause].displayName]))}
        {field('campaign', 'Campaign (its link name; optional)')}
        {select('dedication', 'Dedication', [
          ['', 'None'],
          ['honor', 'In honour of'],
          ['memory', 'In memory of'],
        ])}
        {typed.dedication ? field('honoree', "Honoree's name") : null}
        {field('note', 'Note (optional)', { multiline: true, minRows: 2 })}
        <FormControlLabel
          control={<Checkbox checked={sendReceipt} onChange={(event) => setSendReceipt(event.target.checked)} />}
          label="E-mail the receipt to the donor (when there is an e-mail)"
        />
        {error ? (
          <Alert severity={duplicate ? 'warning' : 'error'} role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            Record the gift
          </Button>
          {duplicate ? (
            // NOTE: the theme's primary colour: MUI's warning orange on this page's background is 2.9:1, under WCAG's 4.5:1.
            <Button variant="outlined" disabled={busy} onClick={(event) => void submit(event, true)}>
              Record it anyway
            </Button>
          ) : null}
        </Box>
      </form>
    </Box>
  );
}

/** The CSV import: template, check, then record. */
function CsvImport() {
  const id = useId();
  const [csv, setCsv] = useState<string>();
  const [fileName, setFileName] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ImportError[]>([]);
  const [message, setMessage] = useState<string>();
  const [checked, setChecked] = useState<ImportAnswer>();
  const [recorded, setRecorded] = useState<ImportAnswer>();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setErrors([]);
    setMessage(undefined);
    setChecked(undefined);
    setRecorded(undefined);
    if (!file) return;
    setFileName(file.name);
    const text = await file.text();
    setCsv(text);
    await run(text, false);
  };

  const run = async (text: string, record: boolean) => {
    setBusy(true);
    setMessage(undefined);
    try {
      const answer = await importOfflineCsv(text, record);
      if ('errors' in answer) {
        setErrors(answer.errors);
        setMessage(answer.message);
      } else if (record) {
        setRecorded(answer);
        setChecked(undefined);
      } else {
        setChecked(answer);
      }
    } catch (caught) {
      setMessage(caught instanceof Error ? caught.message : 'The file could not be checked.');
    }
    setBusy(false);
  };

  return (
    <Box component="section" aria-labelledby={`${id}-heading`} sx={{ maxWidth: 720 }}>
      <Typography component="h2" variant="h5" id={`${id}-heading`} sx={{ mb: 1 }}>
        Gifts from a CSV file
      </Typography>
      <Typography sx={{ mb: 1 }}>
        One gift per row, with the template’s columns; an e-mail or a name identifies the donor. Every row is checked first, and the
        file is recorded whole or not at all. A file recorded before records nothing again.{' '}
        <a href={STAFF_API.offlineGiftsTemplate} download>
          Download the template
        </a>
      </Typography>
      <Button variant="outlined" component="label" disabled={busy}>
        Choose a CSV file
        <input hidden type="file" accept=".csv,text/csv" onChange={(event) => void choose(event)} aria-label="CSV file of gifts" />
      </Button>
      {fileName ? <Typography sx={{ mt: 1, overflowWrap: 'anywhere' }}>{fileName}</Typography> : null}
      {message ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {message}
        </Alert>
      ) : null}
      {errors.length > 0 ? (
        <List aria-label="Errors in the file" dense>
          {errors.map((error) => (
            <ListItem key={`${error.row}-${error.column}`}>
              <ListItemText primary={`Row ${error.row}, ${error.column}: ${error.message}`} />
            </ListItem>
          ))}
        </List>
      ) : null}
      {checked ? (
        <Box role="status" sx={{ mt: 2 }}>
          <Typography>
            {checked.rows} rows checked, no errors: {checked.toRecord} to record
            {checked.alreadyRecorded > 0 ? `, ${checked.alreadyRecorded} recorded before (left out)` : ''}.
          </Typography>
          <Button variant="contained" sx={{ mt: 1 }} disabled={busy || checked.toRecord === 0 || csv === undefined} onClick={() => csv !== undefined && void run(csv, true)}>
            Record {checked.toRecord} gifts
          </Button>
        </Box>
      ) : null}
      {recorded ? (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {recorded.recorded} gifts recorded{recorded.alreadyRecorded > 0 ? `; ${recorded.alreadyRecorded} were recorded before` : ''}.
        </Alert>
      ) : null}
    </Box>
  );
}
