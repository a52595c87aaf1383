import type { DonationSelection } from '../../../shared/donation';
import { getSiteConfig } from '../../config/site-config';
import { CardDonationForm } from './card-donation-form';
import { StripeDonationForm } from './stripe/stripe-donation-form';

/**
 * The donation form (spec sections 2, 4 and 5) in the deployment's payment mode (issue #11): the spec's own card
 * fields sent to process-donation (test mode), or Stripe's Payment Element, the card going from the browser to
 * Stripe only (Stripe mode). Everything else, its texts, validation and outcome, is the same in both.
 */
export function DonationForm({ selection }: { selection: DonationSelection }) {
  const { payments } = getSiteConfig();
  if (payments.gateway === 'test') return <CardDonationForm selection={selection} />;
  return <StripeDonationForm selection={selection} payments={payments} />;
}
