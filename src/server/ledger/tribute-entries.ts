import { and, eq } from 'drizzle-orm';
import type { Tribute, TributeDetail } from '../../shared/tribute';
import type { Database } from '../db/client';
import { mailOutbox, type NewDonationRow } from '../db/schema';

/**
 * The ledger's side of dedicated gifts (issue #23, section 3; decision 0090): the dedication stored on the donation's
 * row, its card queued by the gift's success (outcome-statements.ts: one `tribute_card` message to the notified address,
 * naming the donation; issue #23: "sent once, after the payment succeeds"), and cancelled in the transaction of a refund made
 * before it was sent. Rendering and sending the card is tributes/'s work.
 */

/** The donation columns of `tribute` (all NULL for a gift not dedicated); an empty message is stored as NULL. */
export function tributeColumns(tribute: Tribute | undefined): Partial<NewDonationRow> {
  if (!tribute) return {};
  return {
    tributeType: tribute.type,
    tributeHonoreeName: tribute.honoreeName,
    tributeNotifyName: tribute.notify?.name ?? null,
    tributeNotifyEmail: tribute.notify?.email ?? null,
    tributeNotifyMessage: tribute.notify?.message ? tribute.notify.message : null,
  };
}

/**
 * Cancels the card of a donation refunded in full, if it is still waiting to be sent (issue #23: never for a gift
 * "refunded before sending"), in `db`, the refund's transaction: the message becomes `cancelled` and the relay never
 * claims it. A card already sent stays sent. Resolves with whether a card was cancelled.
 */
export async function cancelTributeCard(db: Database, donationId: string): Promise<boolean> {
  const cancelled = await db
    .update(mailOutbox)
    .set({ status: 'cancelled', lockedUntil: null })
    .where(and(eq(mailOutbox.kind, 'tribute_card'), eq(mailOutbox.donationId, donationId), eq(mailOutbox.status, 'pending')))
    .returning({ id: mailOutbox.id });
  return cancelled.length === 1;
}

/** The tribute columns of a donation row. */
type TributeRow = Pick<NewDonationRow, 'tributeType' | 'tributeHonoreeName' | 'tributeNotifyName' | 'tributeNotifyEmail' | 'tributeNotifyMessage'>;

/** The dedication a donation row holds (issue #23), or null for a gift not dedicated. */
export function tributeOfRow(row: TributeRow): TributeDetail | null {
  if (!row.tributeType || !row.tributeHonoreeName) return null;
  const notify = row.tributeNotifyName && row.tributeNotifyEmail ? { name: row.tributeNotifyName, email: row.tributeNotifyEmail, message: row.tributeNotifyMessage ?? null } : null;
  return { type: row.tributeType, honoreeName: row.tributeHonoreeName, notify };
}
