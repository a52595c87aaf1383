import AutorenewIcon from '@mui/icons-material/Autorenew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { formatDollars } from '../../../shared/money';
import type { ManagedPlan, PlanChange } from '../../../shared/recurring-api';
import { PageLoading } from '../../components/page-loading';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { getSiteConfig } from '../../config/site-config';
import { PATHS } from '../../../shared/site-paths';
import { changePlan, confirmRenewalPayment, failureText, fetchPlan } from './manage-api';
import { PlanActions } from './plan-actions';
import { formatPlanDate, planSummaryLines } from './plan-format';
import { AppAnchor } from '../../components/app-anchor';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';
import { useValidationMessage } from '../../components/use-validation-message';
import { getMinAmountDollars } from '../../config/min-amount';
import { amountErrorText } from '../selection/amount-error-text';

// NOTE: lazily, as the card update, so test mode loads none of the Stripe-mode modules.
const StripePaymentConfirmation = lazy(() => import('./stripe-payment-confirmation').then((module) => ({ default: module.StripePaymentConfirmation })));

/** Announced once the server recorded the renewal the donor confirmed with their bank. */
const PAYMENT_CONFIRMED_NOTICE = /*i18n*/ 'manage.confirmPayment.done';

/** Where the page is: loading the plan, showing it (with the last change's message), or a link that does not work. */
type PageState = { step: 'loading' } | { step: 'plan'; plan: ManagedPlan } | { step: 'failed'; message: string };

/** The plan's lines as a description list, and its charges. */
function PlanSummary({ plan }: { plan: ManagedPlan }) {
  const { i18n, locale } = useTranslation();
  return (
    <Stack spacing={2}>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: 0.5, m: 0 }}>
        {planSummaryLines(i18n, locale, plan).map((line) => (
          <Box key={line.label} sx={{ display: 'contents' }}>
            <Typography component="dt" sx={{ fontWeight: 600 }}>
              {line.label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 } }}>
              {line.value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Typography component="h2" variant="h6">
        {i18n._('manage.charges.heading')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {plan.charges.map((charge, index) => (
          <Typography component="li" key={`${charge.date}-${index}`}>
            {i18n._('manage.charges.line', { date: formatPlanDate(charge.date, locale), amount: formatDollars(charge.amount, locale), status: charge.status })}
          </Typography>
        ))}
      </Box>
    </Stack>
  );
}

/**
 * /donate/manage/:token (issue #13, "The donor's link"): the plan a signed link names, with its charges, and the
 * changes a donor can make without an account. Opening the page changes nothing (a GET); each change is a POST with
 * the CSRF header, announced in a live region that takes the focus, and confirmed by e-mail. A cancelled plan shows
 * its summary only. In Stripe mode, a renewal the donor's bank wants authenticated is offered first: 'Confirm your
 * payment' (StripePaymentConfirmation; decision 0046).
 */
export function ManagePlanPage() {
  const { i18n } = useTranslation();
  const to = useLocalizedPath();
  const localized = useValidationMessage();
  const title = i18n._('manage.plan.heading');
  usePageTitle(title);
  const { token = '' } = useParams();
  const [state, setState] = useState<PageState>({ step: 'loading' });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string }>();
  const noticeRef = useRef<HTMLDivElement>(null);
  const { payments } = getSiteConfig();

  useEffect(() => {
    let live = true;
    void fetchPlan(token).then((outcome) => {
      if (!live) return;
      setState(outcome.kind === 'plan' ? { step: 'plan', plan: outcome.plan } : { step: 'failed', message: outcome.kind === 'failed' ? failureText(i18n, outcome) : '' });
    });
    return () => {
      live = false;
    };
  }, [token, i18n]);

  // The result of a change takes the focus, so keyboard and screen reader users hear it at once.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  // NOTE: one change at a time, even from two clicks in the same frame (before `busy` has disabled the buttons).
  const changing = useRef(false);
  const run = async (change: PlanChange, done: string): Promise<Record<string, string>> => {
    if (changing.current) return {};
    changing.current = true;
    setBusy(true);
    const outcome = await changePlan(token, change).finally(() => {
      changing.current = false;
      setBusy(false);
    });
    if (outcome.kind === 'plan') {
      setState({ step: 'plan', plan: outcome.plan });
      setNotice({ severity: 'success', text: i18n._('manage.done', { done }) });
      return {};
    }
    // A refused field is marked at the field and announced in the notice, which takes the focus. An amount's message
    // is the landing screen's (src/shared/amounts.ts), in the page's language as there (issue #24).
    const field = outcome.kind === 'invalid' ? outcome.field.replace(/^body\./, '') : undefined;
    const message =
      outcome.kind === 'failed'
        ? failureText(i18n, outcome)
        : field === 'amount'
          ? amountErrorText(i18n, outcome.message, getMinAmountDollars())
          : (localized(outcome.message) ?? outcome.message);
    setNotice({ severity: 'error', text: message });
    return field === undefined ? {} : { [field]: message };
  };

  // Stripe.js confirmed the renewal the bank wanted authenticated: the server checks with Stripe and records it.
  const recordConfirmedPayment = async () => {
    setBusy(true);
    const outcome = await confirmRenewalPayment(token);
    setBusy(false);
    if (outcome.kind === 'plan') setState({ step: 'plan', plan: outcome.plan });
    setNotice(outcome.kind === 'plan' ? { severity: 'success', text: i18n._(PAYMENT_CONFIRMED_NOTICE) } : { severity: 'error', text: outcome.kind === 'failed' ? failureText(i18n, outcome) : (localized(outcome.message) ?? outcome.message) });
  };

  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 }, pb: 5 }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <AutorenewIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{title}</ScreenHeading>
          </Stack>
          {notice && (
            <Alert ref={noticeRef} tabIndex={-1} severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'}>
              {notice.text}
            </Alert>
          )}
          {state.step === 'loading' && <CircularProgress aria-label={i18n._('manage.loading')} sx={{ alignSelf: 'center' }} />}
          {state.step === 'failed' && (
            <Alert severity="error" role="alert">
              {state.message}
            </Alert>
          )}
          {state.step === 'plan' && (
            <>
              <PlanSummary plan={state.plan} />
              {state.plan.paymentToConfirm && payments.gateway === 'stripe' && (
                <Suspense fallback={<PageLoading />}>
                  <StripePaymentConfirmation payments={payments} payment={state.plan.paymentToConfirm} busy={busy} onConfirmed={recordConfirmedPayment} />
                </Suspense>
              )}
              {state.plan.status !== 'cancelled' && (
                <>
                  <Divider />
                  <PlanActions key={state.plan.status} plan={state.plan} token={token} busy={busy} run={run} payments={payments} />
                </>
              )}
            </>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'center' }}>
            <Button component={AppAnchor} to={to(PATHS.manage)} variant="text">
              {i18n._('manage.linksAgain')}
            </Button>
            <Button component={AppAnchor} to={to(PATHS.donate)} variant="outlined">
              {i18n._('receipts.donate')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
