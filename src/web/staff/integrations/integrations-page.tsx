import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import type { StaffEndpoint } from '../../../shared/staff/integrations-api';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../shared/webhooks';
import { formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { StaffPage } from '../components/staff-page';
import { useStaffAction } from '../components/use-staff-action';
import { useStaffData } from '../components/use-staff-data';
import { useStaffSession } from '../identity/session/staff-session-context';
import { addEndpoint, fetchDeliveryLog, fetchEndpoints, resendDelivery, rotateSecret, sendTestEvent, setPaused } from './integrations-api';

/** The secret just shown once, and which endpoint it signs for. */
interface ShownSecret {
  url: string;
  secret: string;
}

/** How soon a delivery log with deliveries waiting for their first try is read again, in ms (the relay polls every second). */
const WAITING_LOG_REFRESH_MS = 2_000;

/**
 * One endpoint's delivery log: each try's time, status, latency and the start of the answer, with "Resend". Loaded when
 * shown; the page remounts it (its `key`) after each of its actions, so a test event queued shows as waiting at once, and
 * it reads itself again every {@link WAITING_LOG_REFRESH_MS} while deliveries wait for their first try, so the admin
 * sees the try without pressing "Refresh the log".
 */
function DeliveryLog({ endpoint }: { endpoint: StaffEndpoint }) {
  const { data, error, reload } = useStaffData(fetchDeliveryLog, endpoint.id);
  const { busy, actionError, status, act } = useStaffAction(reload);
  useEffect(() => {
    if (!data || data.waiting === 0) return undefined;
    const timer = setTimeout(reload, WAITING_LOG_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [data, reload]);
  return (
    <Box sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          Delivery log
        </Typography>
        <Button size="small" onClick={reload}>
          Refresh the log
        </Button>
        {data && data.waiting > 0 && <Typography variant="body2">{data.waiting} waiting for their first try</Typography>}
      </Box>
      <PageError message={actionError ?? error} />
      <Typography role="status">{status}</Typography>
      {data && data.attempts.length === 0 && <Typography variant="body2">No deliveries in the last 30 days.</Typography>}
      {data && data.attempts.length > 0 && (
        <HeadedTable label={`Delivery log of ${endpoint.url}`} headers={['Time', 'Event', 'Status', 'Latency', 'Answer', 'Resend']}>
          {data.attempts.map((attempt) => (
            <TableRow key={attempt.id}>
              <TableCell>{formatInstant(attempt.attemptedAt)}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{attempt.eventType}</TableCell>
              <TableCell>{attempt.statusCode ?? 'No answer'}</TableCell>
              <TableCell>{attempt.latencyMs} ms</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 280 }}>{(attempt.error ?? attempt.responseStart).slice(0, 200) || '(empty)'}</TableCell>
              <TableCell>
                <Button size="small" disabled={busy} onClick={() => void act(() => resendDelivery(endpoint.id, attempt.deliveryId), 'The delivery is due again, under its same webhook-id.')}>
                  Resend
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      )}
    </Box>
  );
}

/**
 * `/staff/integrations` (issue #38, admin only: the API answers viewer and finance 403, the navigation hides it from
 * them, and the page tells them it is not theirs without asking the API): add an endpoint (URL, events, donor contact
 * or not), see its secret once, rotate it (the old one signs 24 more hours), pause or resume it, send a test event, and
 * read each endpoint's delivery log with "Resend".
 */
export function IntegrationsPage() {
  const { can } = useStaffSession();
  if (!can('integrations')) {
    return (
      <StaffPage title="Integrations">
        <Alert severity="info">Integrations are for admins: their secrets and the donors&apos; contact leave the charity. Ask an admin.</Alert>
      </StaffPage>
    );
  }
  return <Endpoints />;
}

/** The admin's integrations page itself: the form to add an endpoint, the secret shown once, and every endpoint. */
function Endpoints() {
  const { data, error: loadError, reload } = useStaffData(fetchEndpoints, '');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['donation.succeeded', 'donation.refunded']);
  const [includeContact, setIncludeContact] = useState(true);
  const [shown, setShown] = useState<ShownSecret>();
  const [logVersion, setLogVersion] = useState(0);
  const { busy, actionError, status, act } = useStaffAction(() => {
    reload();
    setLogVersion((version) => version + 1);
  });

  const toggle = (type: WebhookEventType) => setEvents((current) => (current.includes(type) ? current.filter((each) => each !== type) : [...current, type]));
  const add = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const created = await addEndpoint({ url: url.trim(), description: description.trim(), events, includeContact });
      setShown({ url: created.endpoint.url, secret: created.secret });
      setUrl('');
      setDescription('');
    }, 'Endpoint added. Copy its secret now: it is not shown again.');
  };

  return (
    <StaffPage title="Integrations">
      <Typography sx={{ mb: 2 }}>
        Webhooks tell the charity&apos;s other systems (a CRM, a mailing list, Zapier) about every change to the books, signed as the Standard Webhooks specification
        says.
      </Typography>
      <Box component="form" onSubmit={add} aria-label="Add an endpoint" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, mb: 3, maxWidth: 640 }}>
        <TextField label="Endpoint URL" type="url" size="small" required value={url} onChange={(event) => setUrl(event.target.value)} helperText="https:// (http:// only outside production)" />
        <TextField label="Description" size="small" value={description} onChange={(event) => setDescription(event.target.value)} />
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" sx={{ fontWeight: 600 }}>
            Events
          </Typography>
          <Box sx={{ display: 'flex', flexDirection: 'column' }}>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <FormControlLabel
                key={type}
                control={<Checkbox checked={events.includes(type)} onChange={() => toggle(type)} />}
                label={
                  <span>
                    <code>{type}</code>: {WEBHOOK_EVENT_DESCRIPTIONS[type]}
                  </span>
                }
              />
            ))}
          </Box>
        </Box>
        <FormControlLabel control={<Checkbox checked={includeContact} onChange={(event) => setIncludeContact(event.target.checked)} />} label="Include donor contact (name, e-mail, phone, address)" />
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            Add endpoint
          </Button>
        </Box>
      </Box>
      <PageError message={actionError ?? loadError} />
      <Typography role="status" sx={{ mb: status ? 2 : 0, fontWeight: 600 }}>
        {status}
      </Typography>
      {shown && (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, mb: 3 }}>
          <Typography sx={{ fontWeight: 600 }}>Signing secret of {shown.url}</Typography>
          <Typography component="code" sx={{ display: 'block', overflowWrap: 'anywhere', my: 1 }} data-testid="webhook-secret">
            {shown.secret}
          </Typography>
          <Button size="small" onClick={() => setShown(undefined)}>
            I have copied it
          </Button>
        </Box>
      )}
      {data?.endpoints.length === 0 && <Typography>No endpoints yet.</Typography>}
      {data?.endpoints.map((endpoint) => (
        <Box component="section" key={endpoint.id} aria-label={endpoint.url} sx={{ borderTop: 1, borderColor: 'divider', pt: 2, mb: 3 }}>
          <Typography component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
            {endpoint.url}
          </Typography>
          <Typography variant="body2">
            {endpoint.description && <>{endpoint.description}. </>}
            {endpoint.status === 'active' ? 'Active' : endpoint.pausedReason === 'failing' ? 'Paused after three days of failures' : 'Paused'}.{' '}
            {endpoint.includeContact ? 'Gets donor contact.' : 'Donor contact left out.'} Events: {endpoint.events.join(', ')}.
            {endpoint.previousSecretExpiresAt && <> The previous secret also signs until {formatInstant(endpoint.previousSecretExpiresAt)}.</>}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            <Button size="small" variant="outlined" disabled={busy || endpoint.status !== 'active'} onClick={() => void act(() => sendTestEvent(endpoint.id), 'Test event queued.')}>
              Send test event
            </Button>
            <Button
              size="small"
              variant="outlined"
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  const rotated = await rotateSecret(endpoint.id);
                  setShown({ url: rotated.endpoint.url, secret: rotated.secret });
                }, 'Secret rotated. The old one signs for 24 more hours.')
              }
            >
              Rotate secret
            </Button>
            <Button
              size="small"
              variant="outlined"
              disabled={busy}
              onClick={() => void act(() => setPaused(endpoint.id, endpoint.status === 'active'), endpoint.status === 'active' ? 'Endpoint paused.' : 'Endpoint resumed.')}
            >
              {endpoint.status === 'active' ? 'Pause' : 'Resume'}
            </Button>
          </Box>
          <DeliveryLog key={`${endpoint.id}-${logVersion}`} endpoint={endpoint} />
        </Box>
      ))}
    </StaffPage>
  );
}
