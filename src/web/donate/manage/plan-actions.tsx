import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { CAUSE_DETAILS, CAUSES, type Cause } from '../../../shared/causes';
import type { ManagedPlan, PlanChange } from '../../../shared/recurring-api';
import type { SiteConfig } from '../../../shared/site-config';
import { CancelPlan } from './cancel-plan';
import { PageLoading } from '../../components/page-loading';
import type { RunChange } from './manage-api';
import { planAmountLabel } from './plan-format';
import { StopCoveringFee } from './stop-covering-fee';

// NOTE: lazily, so test mode loads none of the Stripe-mode modules, which the donation form's Stripe mode shares.
const StripeCardUpdate = lazy(() => import('./stripe-card-update').then((module) => ({ default: module.StripeCardUpdate })));

/** One titled form of the page (an h2 and its fields), submitted with its own button. */
function ActionForm({ title, id, onSubmit, children }: { title: string; id: string; onSubmit: () => void; children: ReactNode }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={1.5} aria-labelledby={id}>
      <Typography component="h2" variant="h6" id={id}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

const row = { direction: { xs: 'column', sm: 'row' }, spacing: 1.5, useFlexGap: true, sx: { alignItems: { sm: 'flex-start' } } } as const;

/**
 * The changes a donor can make to a plan that is not cancelled (issue #13): the amount (from the next charge), the
 * cause, stop covering the card fee (issue #23), pause (until a date or until resumed) or resume, a new card (the spec's card fields in test mode, Stripe's
 * Payment Element in Stripe mode: see StripeCardUpdate), and cancel with one confirmation step. Every change goes
 * through `run`, which posts it and announces the result. `token` is the plan's manage token; `payments` the site's.
 */
export function PlanActions({ plan, token, busy, run, payments }: { plan: ManagedPlan; token: string; busy: boolean; run: RunChange; payments: SiteConfig['payments'] }) {
  const [amount, setAmount] = useState(String(plan.amount));
  const [cause, setCause] = useState<Cause>(plan.cause);
  const [until, setUntil] = useState('');
  const [card, setCard] = useState({ number: '', holderName: '', expiryMonth: '', expiryYear: '', cvv: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const act = async (change: PlanChange, done: string) => setErrors(await run(change, done));
  const cardField = (name: keyof typeof card, label: string, autoComplete: string, inputMode: 'numeric' | 'text' = 'numeric') => (
    <TextField
      label={label}
      value={card[name]}
      onChange={(event) => setCard({ ...card, [name]: event.target.value })}
      autoComplete={autoComplete}
      required
      error={errors[`creditCard.${name}`] !== undefined}
      helperText={errors[`creditCard.${name}`]}
      slotProps={{ htmlInput: { inputMode } }}
    />
  );

  return (
    <Stack spacing={4}>
      <ActionForm title="Change the amount" id="change-amount" onSubmit={() => void act({ action: 'change_amount', amount: Number(amount) }, 'Your new amount applies from your next charge.')}>
        <Stack {...row}>
          <TextField
            label="Amount (USD)"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            error={errors.amount !== undefined}
            helperText={errors.amount ?? 'From your next charge'}
          />
          <Button type="submit" variant="contained" disabled={busy}>
            Save Amount
          </Button>
        </Stack>
      </ActionForm>

      {plan.feeCovered > 0 && (
        <StopCoveringFee feeDollars={plan.feeCovered} busy={busy} onStop={() => void act({ action: 'stop_covering_fee' }, 'Your charges no longer add the card processing fee.')} />
      )}

      <ActionForm title="Change the cause" id="change-cause" onSubmit={() => void act({ action: 'change_cause', cause }, 'Your gift now supports the cause you chose.')}>
        <Stack {...row}>
          <TextField select label="Cause" value={cause} onChange={(event) => setCause(event.target.value as Cause)} sx={{ minWidth: { sm: 280 } }}>
            {CAUSES.map((option) => (
              <MenuItem key={option} value={option}>
                {CAUSE_DETAILS[option].displayName}
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="contained" disabled={busy}>
            Save Cause
          </Button>
        </Stack>
      </ActionForm>

      {plan.status === 'paused' ? (
        <ActionForm title="Resume your gift" id="resume-plan" onSubmit={() => void act({ action: 'resume' }, 'Your gift is active again.')}>
          <Typography>Your gift is paused: nothing is charged. Resume it to give again from the next date of its calendar.</Typography>
          <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
            Resume Gift
          </Button>
        </ActionForm>
      ) : (
        <ActionForm
          title="Pause your gift"
          id="pause-plan"
          onSubmit={() => void act(until ? { action: 'pause', until } : { action: 'pause' }, until ? 'Your gift is paused until the date you chose.' : 'Your gift is paused until you resume it.')}
        >
          <Stack {...row}>
            <TextField
              type="date"
              label="Pause until (optional)"
              value={until}
              onChange={(event) => setUntil(event.target.value)}
              error={errors.until !== undefined}
              helperText={errors.until ?? 'Leave empty to pause until you resume'}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button type="submit" variant="contained" disabled={busy}>
              Pause Gift
            </Button>
          </Stack>
        </ActionForm>
      )}

      {payments.gateway === 'stripe' ? (
        <Suspense fallback={<PageLoading />}>
          <StripeCardUpdate payments={payments} token={token} busy={busy} run={run} />
        </Suspense>
      ) : (
        <ActionForm title="Update your card" id="update-card" onSubmit={() => void act({ action: 'update_card', creditCard: card }, 'Your new card is saved.')}>
          <Stack spacing={1.5}>
            {cardField('number', 'Card Number', 'cc-number')}
            {cardField('holderName', 'Name on Card', 'cc-name', 'text')}
            <Stack {...row}>
              {cardField('expiryMonth', 'Expiry Month (MM)', 'cc-exp-month')}
              {cardField('expiryYear', 'Expiry Year (YYYY)', 'cc-exp-year')}
              {cardField('cvv', 'CVV', 'cc-csc')}
            </Stack>
            {errors.creditCard && <Typography color="error">{errors.creditCard}</Typography>}
            <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
              Update Card
            </Button>
          </Stack>
        </ActionForm>
      )}

      <Stack spacing={1.5}>
        <Typography component="h2" variant="h6">
          Cancel your gift
        </Typography>
        <Typography>Cancelling stops every future charge.</Typography>
        <CancelPlan giftLabel={planAmountLabel(plan)} busy={busy} onConfirm={() => void act({ action: 'cancel' }, 'Your gift is cancelled. Nothing more will be charged.')} />
      </Stack>
    </Stack>
  );
}
