import type { CampaignStatus } from '../../../shared/campaign-api';
import { formatCents } from '../components/format';

/** A campaign's status in words (decision 0101). */
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Not yet open',
  live: 'Live',
  ended: 'Ended',
};

/** What a campaign counts, in one sentence (issue #34: "the staff page says it in a sentence"; decision 0101). */
export const WHAT_COUNTS =
  'Raised counts the succeeded gifts made through the campaign while it was live, less refunds and without the card fees donors covered; a recurring gift counts its renewals charged while the campaign is live; donors are distinct e-mail addresses; pending, declined and disputed gifts never count.';

/** A goal, or a dash without one. */
export const goalText = (goalCents: number | null) => (goalCents === null ? '—' : formatCents(goalCents));

/** A local date-time `YYYY-MM-DDTHH:mm` in words (`Mar 10, 2027, 9:00 AM`), or a dash. */
export function localText(local: string | null): string {
  if (local === null) return '—';
  const [date = '', time = ''] = local.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0)),
  );
}
