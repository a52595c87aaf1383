import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { CAUSES, type Cause, causeName } from '../../../shared/causes';
import type { ManagedPlan, PlanChange } from '../../../shared/recurring-api';
import type { SiteConfig } from '../../../shared/site-config';
import { CancelPlan } from './cancel-plan';
import { PageLoading } from '../../components/page-loading';
import type { RunChange } from './manage-api';
import { planAmountLabel } from './plan-format';
import { StopCoveringFee } from './stop-covering-fee';
import { useTranslation } from '../../i18n/use-translation';

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
  const { i18n, locale } = useTranslation();
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
      <ActionForm title={i18n._('manage.amount.heading')} id="change-amount" onSubmit={() => void act({ action: 'change_amount', amount: Number(amount) }, i18n._('manage.amount.done'))}>
        <Stack {...row}>
          <TextField
            label={i18n._('manage.amount.label')}
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            error={errors.amount !== undefined}
            helperText={errors.amount ?? i18n._('manage.amount.helper')}
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {i18n._('manage.amount.save')}
          </Button>
        </Stack>
      </ActionForm>

      {plan.feeCovered > 0 && (
        <StopCoveringFee feeDollars={plan.feeCovered} busy={busy} onStop={() => void act({ action: 'stop_covering_fee' }, i18n._('manage.fee.done'))} />
      )}

      <ActionForm title={i18n._('manage.cause.heading')} id="change-cause" onSubmit={() => void act({ action: 'change_cause', cause }, i18n._('manage.cause.done'))}>
        <Stack {...row}>
          <TextField select label={i18n._('manage.cause.label')} value={cause} onChange={(event) => setCause(event.target.value as Cause)} sx={{ minWidth: { sm: 280 } }}>
            {CAUSES.map((option) => (
              <MenuItem key={option} value={option}>
                {causeName(i18n, option)}
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="contained" disabled={busy}>
            {i18n._('manage.cause.save')}
          </Button>
        </Stack>
      </ActionForm>

      {plan.status === 'paused' ? (
        <ActionForm title={i18n._('manage.resume.heading')} id="resume-plan" onSubmit={() => void act({ action: 'resume' }, i18n._('manage.resume.done'))}>
          <Typography>{i18n._('manage.resume.text')}</Typography>
          <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
            {i18n._('manage.resume.button')}
          </Button>
        </ActionForm>
      ) : (
        <ActionForm
          title={i18n._('manage.pause.heading')}
          id="pause-plan"
          onSubmit={() => void act(until ? { action: 'pause', until } : { action: 'pause' }, until ? i18n._('manage.pause.doneUntil') : i18n._('manage.pause.done'))}
        >
          <Stack {...row}>
            <TextField
              type="date"
              label={i18n._('manage.pause.label')}
              value={until}
              onChange={(event) => setUntil(event.target.value)}
              error={errors.until !== undefined}
              helperText={errors.until ?? i18n._('manage.pause.helper')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button type="submit" variant="contained" disabled={busy}>
              {i18n._('manage.pause.button')}
            </Button>
          </Stack>
        </ActionForm>
      )}

      {payments.gateway === 'stripe' ? (
        <Suspense fallback={<PageLoading />}>
          <StripeCardUpdate payments={payments} token={token} busy={busy} run={run} />
        </Suspense>
      ) : (
        <ActionForm title={i18n._('manage.card.heading')} id="update-card" onSubmit={() => void act({ action: 'update_card', creditCard: card }, i18n._('manage.card.done'))}>
          <Stack spacing={1.5}>
            {cardField('number', i18n._('card.number'), 'cc-number')}
            {cardField('holderName', i18n._('manage.card.holderName'), 'cc-name', 'text')}
            <Stack {...row}>
              {cardField('expiryMonth', i18n._('manage.card.expiryMonth'), 'cc-exp-month')}
              {cardField('expiryYear', i18n._('manage.card.expiryYear'), 'cc-exp-year')}
              {cardField('cvv', i18n._('card.cvv'), 'cc-csc')}
            </Stack>
            {errors.creditCard && <Typography color="error">{errors.creditCard}</Typography>}
            <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
              {i18n._('manage.card.button')}
            </Button>
          </Stack>
        </ActionForm>
      )}

      <Stack spacing={1.5}>
        <Typography component="h2" variant="h6">
          {i18n._('manage.cancel.heading')}
        </Typography>
        <Typography>{i18n._('manage.cancel.intro')}</Typography>
        <CancelPlan giftLabel={planAmountLabel(i18n, locale, plan)} busy={busy} onConfirm={() => void act({ action: 'cancel' }, i18n._('manage.cancel.done'))} />
      </Stack>
    </Stack>
  );
}
