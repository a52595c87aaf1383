import { CURRENCY } from '../../shared/money';
import type { DigestSettings } from '../platform/config';
import type { Database } from '../db/client';
import type { MailOutboxRow } from '../db/schema';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../mail/relay';
import { renderEmailParts } from '../mail/render-email';
import { formatAmountCents } from '../receipts/receipt-view';
import { DigestEmail, formatDigestDate, giftsLabel } from './digest-email';
import { loadDailyDigest } from './report';

/** What the digest's composer needs: the database, the organisation's name, and the zone of the digest's days (TZ). */
export interface DigestComposerDeps {
  db: Database;
  /** ORG_LEGAL_NAME. */
  organizationName: string;
  /** TZ (DigestSettings.timeZone). */
  timeZone: DigestSettings['timeZone'];
}

/**
 * The composer of `staff_digest` messages (issue #14; the relay's `compose` for that kind, app.ts): reads the figures of
 * the row's `digest_date` in `timeZone` from the database when the message is sent (loadDailyDigest) and renders them.
 * Rejects with PermanentComposeError for another kind or a row without its date (the relay does not retry it), and
 * with the database's error when a query fails (retried).
 */
export function createDigestComposer(deps: DigestComposerDeps): ComposeMail {
  return async (row: MailOutboxRow): Promise<ComposedMail> => {
    if (row.kind !== 'staff_digest' || row.digestDate === null) throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not a staff digest`);
    const digest = await loadDailyDigest(deps.db, row.digestDate, deps.timeZone);
    return {
      to: row.recipient,
      subject: `Daily digest, ${formatDigestDate(digest.date)}: ${formatAmountCents(digest.gifts.amountCents, CURRENCY)} from ${giftsLabel(digest.gifts.count)}`,
      ...(await renderEmailParts(<DigestEmail digest={digest} organizationName={deps.organizationName} />)),
    };
  };
}
