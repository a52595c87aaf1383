import { open, type FileHandle } from 'node:fs/promises';
import type { ChargeResult } from './gateway';

/**
 * The test gateway's own record of the charges it made, one per idempotency key (issue #3). It plays the
 * part of Stripe's side of the wire: it must outlive the API process (the crash tests kill that process
 * and then compare this record with the donations table), so in a real DATA_DIR it is an append-only
 * JSON-lines file, and a charge counts as made only once its line is on disk (written and fdatasync'ed).
 * See docs/decisions/0010-test-gateway-charge-ledger.md.
 * NOTE: a record holds last4 and the result only, never the card number or the CVC (PCI DSS 3.2, 3.4).
 */

/** One charge the test gateway made (succeeded or declined), as kept in the ledger. Amount in cents. */
export interface ChargeRecord {
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  last4: string;
  result: ChargeResult;
  /** When the charge was made, ISO 8601. */
  chargedAt: string;
}

/** What a ledger keeps: one record per idempotency key (a charge, or a refund since issue #32). */
export interface KeyedRecord {
  idempotencyKey: string;
}

/** The records made so far (charges, or refunds: test-refunds.ts), by idempotency key, and the way to add one durably. */
export interface GatewayLedger<R extends KeyedRecord> {
  /** The record made under `idempotencyKey`, if any. */
  get(idempotencyKey: string): R | undefined;
  /** Every record, in the order they were made. */
  list(): R[];
  /** Adds a record; resolves once it is durable (on disk for a file ledger). Rejects when the write fails. */
  append(record: R): Promise<void>;
  /** Flushes what is queued and closes the file. */
  close(): Promise<void>;
}

/** The charges made so far, by idempotency key, and the way to add one durably. */
export type ChargeLedger = GatewayLedger<ChargeRecord>;

/** A ledger of charges in memory only (tests and `DATA_DIR=memory://`): gone with the process. */
export function memoryChargeLedger(): ChargeLedger {
  return memoryLedger<ChargeRecord>();
}

/** A ledger in memory only (tests and `DATA_DIR=memory://`): gone with the process. */
export function memoryLedger<R extends KeyedRecord>(): GatewayLedger<R> {
  const records = new Map<string, R>();
  return {
    get: (key) => records.get(key),
    list: () => [...records.values()],
    async append(record) {
      records.set(record.idempotencyKey, record);
    },
    async close() {},
  };
}

/**
 * Reads the records of a ledger file's text. A last line without its newline is a write the process
 * did not finish (it was killed): that charge was never acknowledged, so it is ignored, and `validLength`
 * (bytes) says where the intact part ends. Throws on a malformed line anywhere else.
 */
export function parseLedger<R extends KeyedRecord = ChargeRecord>(text: string): { records: R[]; validLength: number } {
  const end = text.lastIndexOf('\n') + 1;
  const lines = text.slice(0, end).split('\n').filter((line) => line !== '');
  const records = lines.map((line, index) => {
    try {
      return JSON.parse(line) as R;
    } catch {
      throw new Error(`The gateway ledger is corrupt at line ${index + 1}`);
    }
  });
  return { records, validLength: Buffer.byteLength(text.slice(0, end)) };
}

/**
 * Opens (creating if missing) the ledger file at `filePath` and loads its records. Appends are group
 * committed: the lines queued while one write is under way go out together in the next write, followed by
 * one fdatasync, so many concurrent charges cost one disk flush. An unfinished last line (see
 * {@link parseLedger}) is cut off first. Throws when the file cannot be opened or is corrupt.
 */
export async function openFileChargeLedger(filePath: string): Promise<ChargeLedger> {
  return openFileLedger<ChargeRecord>(filePath);
}

/** {@link openFileChargeLedger} for records of any kind (the test gateway's refunds: test-refunds.ts). */
export async function openFileLedger<R extends KeyedRecord>(filePath: string): Promise<GatewayLedger<R>> {
  const file: FileHandle = await open(filePath, 'a+');
  const records = new Map<string, R>();
  try {
    const { records: loaded, validLength } = parseLedger<R>(await file.readFile('utf8'));
    for (const record of loaded) records.set(record.idempotencyKey, record);
    if ((await file.stat()).size !== validLength) await file.truncate(validLength);
  } catch (error) {
    await file.close();
    throw error;
  }

  let queue: Array<{ record: R; resolve: () => void; reject: (error: unknown) => void }> = [];
  let flushing: Promise<void> | undefined;

  const flush = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await file.appendFile(batch.map(({ record }) => `${JSON.stringify(record)}\n`).join(''));
        await file.datasync();
        for (const { record, resolve } of batch) {
          records.set(record.idempotencyKey, record);
          resolve();
        }
      } catch (error) {
        for (const { reject } of batch) reject(error);
      }
    }
    flushing = undefined;
  };

  return {
    get: (key) => records.get(key),
    list: () => [...records.values()],
    append(record) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ record, resolve, reject });
        flushing ??= flush();
      });
    },
    async close() {
      await flushing;
      await file.close();
    },
  };
}
