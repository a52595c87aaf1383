import { simpleParser, type ParsedMail } from 'mailparser';
import type { SMTPServerSession } from 'smtp-server';
import { listenOnFreePort, SMTPServerWithoutGreetingDelay } from './smtp-server-without-greeting-delay';
import { seededRandom } from './seeded-random';

/**
 * A real SMTP server for the mail tests (issue #12: "A real SMTP server in the tests (`smtp-server`, parsed with
 * `mailparser`)"), on a free port of 127.0.0.1, that can refuse commands temporarily (451) at a given rate, from
 * a seeded generator so a run is repeatable, or refuse recipients permanently (550).
 */

/** How the server misbehaves. */
export interface SmtpFaults {
  /** Share of MAIL FROM, RCPT TO and DATA commands answered `451 4.3.0` (0 to 1). */
  temporaryFailureRate?: number;
  /** Recipients answered `550 5.1.1` at RCPT TO. */
  rejectRecipients?: string[];
  /** Seed of the failure draws. */
  seed?: number;
}

/** A running test SMTP server and what it accepted. */
export interface SmtpTestServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message accepted (250 after DATA), parsed. */
  readonly received: ParsedMail[];
  /** Number of commands refused so far, temporarily or permanently. */
  readonly refusals: number;
  /** Number of client connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

/** Starts the server; resolves once it listens. */
export async function startSmtpTestServer(faults: SmtpFaults = {}): Promise<SmtpTestServer> {
  const random = seededRandom(faults.seed ?? 1);
  const rate = faults.temporaryFailureRate ?? 0;
  const rejected = new Set((faults.rejectRecipients ?? []).map((address) => address.toLowerCase()));
  const received: ParsedMail[] = [];
  let refusals = 0;
  let connections = 0;
  const temporary = (): Error | null => {
    if (random() >= rate) return null;
    refusals += 1;
    return smtpError('Try again later (injected fault)', 451);
  };

  const server = new SMTPServerWithoutGreetingDelay({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onMailFrom(_address, _session: SMTPServerSession, callback) {
      callback(temporary());
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address.toLowerCase())) {
        refusals += 1;
        return callback(smtpError('No such user here', 550));
      }
      callback(temporary());
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const fault = temporary();
        if (fault) return callback(fault);
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  const port = await listenOnFreePort(server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refusals() {
      return refusals;
    },
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
