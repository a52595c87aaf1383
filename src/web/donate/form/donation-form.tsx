import { lazy, Suspense } from 'react';
import type { DonationSelection } from '../../../shared/donation';
import { PageLoading } from '../../components/page-loading';
import { getSiteConfig } from '../../config/site-config';
import { CardDonationForm } from './card-donation-form';

// NOTE: lazily, so test mode loads none of the Stripe-mode modules, which the manage page's card form shares (issue #13).
const StripeDonationForm = lazy(() => import('./stripe/stripe-donation-form').then((module) => ({ default: module.StripeDonationForm })));

/**
 * The donation form (spec sections 2, 4 and 5) in the deployment's payment mode (issue #11): the spec's own card
 * fields sent to process-donation (test mode), or Stripe's Payment Element, the card going from the browser to
 * Stripe only (Stripe mode). Everything else, its texts, validation and outcome, is the same in both. `coverFee`: the
 * donor covers the card fee (issue #23).
 */
export function DonationForm({ selection, coverFee }: { selection: DonationSelection; coverFee: boolean }) {
  const { payments } = getSiteConfig();
  if (payments.gateway === 'test') return <CardDonationForm selection={selection} coverFee={coverFee} />;
  return (
    <Suspense fallback={<PageLoading />}>
      <StripeDonationForm selection={selection} payments={payments} coverFee={coverFee} />
    </Suspense>
  );
}
