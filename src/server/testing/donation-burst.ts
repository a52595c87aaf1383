import { API_PATHS, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import type { DonationSubmissionInput } from '../../shared/donation';
import type { ServerProcess } from './server-process';

/**
 * Bursts of donations over real HTTP against a server process that is killed mid-burst, for the crash tests
 * (issue #3's fault 4, issue #25's chaos test): what each request sent and got back, and how to tell the restarted
 * server has settled what the killed one left.
 */

/** One donation sent, and its answers (none while the server died before answering). */
export interface SentDonation {
  /** Its Idempotency-Key, or undefined for a request sent without one. */
  key: string | undefined;
  body: DonationSubmissionInput;
  /** The last status answered (undefined while no answer came back). */
  status?: number;
  /** The transaction id of every 200 answered to it (more than one would be a second charge). */
  transactionIds: Set<string>;
}

/** POSTs `donation` to process-donation with `headers` (the CSRF pair) and its key; records the answer on it. Rejects when the connection dies. */
export async function postDonation(server: ServerProcess, headers: Record<string, string>, donation: SentDonation): Promise<void> {
  const response = await fetch(`${server.baseUrl}${API_PATHS.processDonation}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', ...(donation.key ? { [IDEMPOTENCY_KEY_HEADER]: donation.key } : {}) },
    body: JSON.stringify(donation.body),
  });
  const json = (await response.json()) as { data?: { transactionId?: string } };
  donation.status = response.status;
  if (response.status === 200 && json.data?.transactionId) donation.transactionIds.add(json.data.transactionId);
}

/**
 * Sends donations from `donors` donors at once, each the next of `next(donor, i)`, until `killAfterAnswers` answers
 * came back; then, after `beforeKill` (if any), kills `server` with SIGKILL, requests still in flight. Resolves with
 * every donation sent, once the server is gone.
 */
export async function burstThenKill(
  server: ServerProcess,
  headers: Record<string, string>,
  { donors, killAfterAnswers, next, beforeKill }: {
    donors: number;
    killAfterAnswers: number;
    next: (donor: number, i: number) => Omit<SentDonation, 'transactionIds'>;
    beforeKill?: () => Promise<void>;
  },
): Promise<SentDonation[]> {
  const sent: SentDonation[] = [];
  let answers = 0;
  let killing: Promise<void> | undefined;
  const donor = async (index: number) => {
    for (let i = 0; !killing; i += 1) {
      const donation: SentDonation = { ...next(index, i), transactionIds: new Set() };
      sent.push(donation);
      try {
        await postDonation(server, headers, donation);
      } catch {
        return; // the connection died with the server
      }
      answers += 1;
      if (answers === killAfterAnswers) killing = (beforeKill?.() ?? Promise.resolve()).then(() => server.kill());
    }
  };
  await Promise.all(Array.from({ length: donors }, (_, index) => donor(index)));
  await killing;
  return sent;
}

/** True for the server's log line of a reconciliation run that left no donation pending. */
export function reconciledEverything(line: string): boolean {
  try {
    const entry = JSON.parse(line) as { msg?: string; reconcile?: { stillPending?: number } };
    return entry.msg === 'Reconciliation finished' && entry.reconcile?.stillPending === 0;
  } catch {
    return false;
  }
}
