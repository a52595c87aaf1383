import type { StaffDonationDetail } from '../../../shared/staff/donations-api';
import type { MailOutboxRow } from '../../db/schema';

/**
 * The state staff see of an outbox message: `sent`, `failed` (given up), `retrying` (pending after a failed attempt:
 * it has a last error) or `queued` (pending, not tried yet or being sent for the first time).
 */
export function mailStateOf(row: Pick<MailOutboxRow, 'status' | 'lastError'>): StaffDonationDetail['emails'][number]['state'] {
  if (row.status !== 'pending') return row.status;
  return row.lastError === null ? 'queued' : 'retrying';
}
