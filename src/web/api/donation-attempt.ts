/**
 * One idempotency key per donation attempt (issue #3). The key is kept while the donor retries the
 * same payload after an answer that was not final (no answer, 409 in flight, 500, 503 "being
 * confirmed"), so a retry can never charge twice; a changed payload or a final answer starts a new
 * attempt with a new key. Memory only: nothing is stored, and the payload is compared, never kept
 * beyond the page.
 */
export interface DonationAttempt {
  /** The key for sending `payload` now: the current attempt's key if `payload` is unchanged, else a new one. */
  keyFor(payload: unknown): string;
  /** Ends the attempt after a final answer, so the next send gets a new key. */
  finish(): void;
}

/** 128 random bits as hex; `crypto.randomUUID` needs a secure context, `getRandomValues` does not. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Creates the attempt tracker of one donation form (see {@link DonationAttempt}). */
export function createDonationAttempt(): DonationAttempt {
  let current: { payloadJson: string; key: string } | null = null;
  return {
    keyFor(payload) {
      const payloadJson = JSON.stringify(payload);
      if (current?.payloadJson !== payloadJson) current = { payloadJson, key: newKey() };
      return current.key;
    },
    finish() {
      current = null;
    },
  };
}
