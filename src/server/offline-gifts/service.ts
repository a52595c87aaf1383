import type { OfflineGiftRequest, OfflineGiftSource } from '../../shared/offline-gifts';
import { receivedOnError } from '../../shared/offline-gifts';
import type { Database } from '../db/client';
import { checkOfflineCsv, type OfflineCsvError } from './csv';
import {
  findLikelyDuplicate,
  findRecordedEntries,
  fingerprintOfflineGift,
  recordOfflineGifts,
  unknownCampaigns,
  type OfflineGiftEntry,
  type RecordedOfflineGift,
} from './record';

/**
 * What the page, the operator's route and the CSV import share around {@link recordOfflineGifts} (issue #37): the checks
 * that need the database or the clock (the day received against today in TZ, the campaign, a likely duplicate), the
 * replay of a key recorded before, and the caller's audit written in the recording's transaction.
 */

/** Today's date, `YYYY-MM-DD`, in `timeZone` (the staff's TZ) at `now`. */
export function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** What a recording needs besides the gift: who records it, the staff's time zone, today there, and the audit to write with it. */
export interface RecordingContext {
  source: OfflineGiftSource;
  timeZone: string;
  /** Today in `timeZone`, `YYYY-MM-DD` ({@link todayIn} of the injected clock). */
  today: string;
  /** Writes the caller's audit entry in the recording's transaction (a staff action; the operator's requests are audited by their hook). */
  audit: (tx: Database, recorded: readonly RecordedOfflineGift[]) => Promise<void>;
}

/** The outcome of recording one gift. */
export type RecordOneOutcome =
  | { kind: 'recorded'; gift: RecordedOfflineGift; replayed: boolean }
  | { kind: 'invalid'; fieldErrors: Record<string, string> }
  | { kind: 'likely_duplicate'; duplicateOf: { donationId: string; receiptNumber: string | null } }
  | { kind: 'key_reused' };

/** PostgreSQL's unique_violation: another request recorded the same key meanwhile. */
const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && ((error as { code?: string }).code === '23505' || isUniqueViolation((error as { cause?: unknown }).cause));

/**
 * Records one gift under `idempotencyKey` (issue #37: "saved once however often the button is pressed"): a key recorded
 * before answers its gift again (`replayed`), or `key_reused` when it was for another gift; a day out of range or an
 * unknown campaign is `invalid` (fieldErrors by the body's field); a likely duplicate (same donor, amount, day and
 * reference) is `likely_duplicate` unless `confirmDuplicate`; else the gift is recorded with the audit, in one transaction.
 */
export async function recordOneOfflineGift(db: Database, request: OfflineGiftRequest, idempotencyKey: string, context: RecordingContext): Promise<RecordOneOutcome> {
  const entryKey = `${context.source === 'operator' ? 'admin' : 'page'}:${idempotencyKey}`;
  const fingerprint = fingerprintOfflineGift(request);
  const replay = async (): Promise<RecordOneOutcome> => {
    const before = (await findRecordedEntries(db, [entryKey])).get(entryKey);
    if (!before) return { kind: 'key_reused' };
    if (before.fingerprint !== fingerprint) return { kind: 'key_reused' };
    const { fingerprint: _fingerprint, ...gift } = before;
    return { kind: 'recorded', gift, replayed: true };
  };
  if ((await findRecordedEntries(db, [entryKey])).has(entryKey)) return replay();
  const dateError = receivedOnError(request.receivedOn, context.today);
  if (dateError) return { kind: 'invalid', fieldErrors: { receivedOn: dateError } };
  if (request.campaign && (await unknownCampaigns(db, [request.campaign])).size > 0) {
    return { kind: 'invalid', fieldErrors: { campaign: 'No campaign has this name: choose one from the list' } };
  }
  if (request.confirmDuplicate !== true) {
    const duplicateOf = await findLikelyDuplicate(db, request);
    // The "duplicate" may be this very key's gift, recorded by a press of the same button meanwhile: answer it again.
    if (duplicateOf && (await findRecordedEntries(db, [entryKey])).has(entryKey)) return replay();
    if (duplicateOf) return { kind: 'likely_duplicate', duplicateOf };
  }
  try {
    const gift = await db.transaction(async (tx) => {
      const [recorded] = await recordOfflineGifts(tx, [{ request, entryKey, fingerprint }], context);
      if (!recorded) throw new Error('Recording an offline gift returned nothing');
      await context.audit(tx, [recorded]);
      return recorded;
    });
    return { kind: 'recorded', gift, replayed: false };
  } catch (error) {
    // Two presses at once: the second one's key is taken by the first; answer the first's gift.
    if (isUniqueViolation(error)) return replay();
    throw error;
  }
}

/** The outcome of a CSV import. */
export type ImportOutcome =
  | { kind: 'refused'; errors: OfflineCsvError[] }
  | { kind: 'checked'; rows: number; toRecord: number; alreadyRecorded: number }
  | { kind: 'recorded'; rows: number; recorded: number; alreadyRecorded: number };

/**
 * Checks the CSV `text` (checkOfflineCsv, then that each campaign named exists) and, when `record` and nothing is wrong,
 * records every row not recorded before (by its row key) in ONE transaction with the audit: all or none (issue #37). When
 * another request records some of the same rows meanwhile, this one's transaction fails on their keys and is tried once
 * more with what is still new, so the same file sent twice at once is recorded once (not a 500).
 * With errors nothing is written and every error is returned; without `record`, the count of what would be recorded.
 */
export async function importOfflineCsv(db: Database, text: string, options: RecordingContext & { record: boolean }): Promise<ImportOutcome> {
  const checked = checkOfflineCsv(text, options.today);
  const errors = [...checked.errors];
  const unknown = await unknownCampaigns(db, [...checked.campaigns.keys()]);
  for (const slug of unknown) for (const row of checked.campaigns.get(slug) ?? []) errors.push({ row, column: 'campaign', message: `No campaign is named ${slug}` });
  if (errors.length > 0) return { kind: 'refused', errors: errors.sort((a, b) => a.row - b.row) };
  const rows = checked.entries.length;
  const freshEntries = async () => {
    const recordedBefore = await findRecordedEntries(db, checked.entries.map((entry) => entry.entryKey));
    return checked.entries.filter((entry) => !recordedBefore.has(entry.entryKey));
  };
  const fresh = await freshEntries();
  if (!options.record) return { kind: 'checked', rows, toRecord: fresh.length, alreadyRecorded: rows - fresh.length };
  const recordAll = (entries: OfflineGiftEntry[]) =>
    db.transaction(async (tx) => {
      const gifts = await recordOfflineGifts(tx, entries, { ...options, source: 'import' });
      await options.audit(tx, gifts);
      return gifts;
    });
  let recorded: RecordedOfflineGift[];
  try {
    recorded = await recordAll(fresh);
  } catch (error) {
    // The same file recorded meanwhile (two presses, two tabs): its rows' keys are taken, all of this was rolled back;
    // what is left to record is looked up again (nothing, for the same file), so the answer is "recorded before".
    if (!isUniqueViolation(error)) throw error;
    recorded = await recordAll(await freshEntries());
  }
  return { kind: 'recorded', rows, recorded: recorded.length, alreadyRecorded: rows - recorded.length };
}
