import type { StaffDonationTotals } from '../../../shared/staff/donations-api';
import { FigureList } from '../components/figure-list';
import { formatCents } from '../components/format';

/**
 * The totals of the filtered set above the table (issue #21): how many donations, their gross, what was refunded of
 * them, what is held in disputes, and the net (what the charity keeps), so refunds are never hidden in the totals. A
 * description list, read in order.
 */
export function DonationTotals({ totals }: { totals: StaffDonationTotals }) {
  const items: [string, string][] = [
    ['Donations', totals.count.toLocaleString('en-US')],
    ['Gross', formatCents(totals.grossCents)],
    ['Refunded', formatCents(totals.refundedCents)],
    ['Disputed', formatCents(totals.disputedCents)],
    ['Net', formatCents(totals.netCents)],
  ];
  return <FigureList items={items} />;
}
