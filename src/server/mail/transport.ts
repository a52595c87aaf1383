import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type { MailSettings } from '../platform/config';

/**
 * Where e-mail goes (issue #12): an SMTP server through nodemailer when SMTP_URL is set, otherwise RFC 5322
 * `.eml` files in MAIL_DIR, so a person trying the site can open the receipt they were sent.
 */

/** A message ready to leave: nodemailer's options with the Message-ID, the date and the file name stem fixed. */
export interface OutgoingMail extends Mail.Options {
  /** `<...@domain>`, the same for every attempt of one message. */
  messageId: string;
  /** The message's Date header (the outbox row's creation), the same for every attempt. */
  date: Date;
  /** Name of the `.eml` file without extension (letters, digits, `.`, `_`, `-`), the same for every attempt. */
  fileStem: string;
}

/** Sends messages; `send` rejects with nodemailer's error (see {@link isPermanentMailError}). */
export interface MailTransport {
  /** `smtp` (SMTP_URL set) or `eml` (files in MAIL_DIR). */
  readonly kind: 'smtp' | 'eml';
  /** Sends one message; resolves once the SMTP server accepted it or the file is written. */
  send(message: OutgoingMail): Promise<void>;
  /** Closes pooled connections. */
  close(): void;
}

/** Socket timeouts of the SMTP client, in ms: a server that does not answer is a temporary failure. */
const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * Messages the relay sends at once (relay.ts), and so the SMTP connections the transport keeps open: one each, never
 * a message waiting in nodemailer's queue for a connection (the relay's claim lease counts on a send's own timeouts).
 */
export const MAIL_SEND_CONCURRENCY = 4;

/** The transport MailSettings select: SMTP at `smtpUrl`, or `.eml` files in `dir` (created when missing). */
export function createMailTransport(settings: Pick<MailSettings, 'smtpUrl' | 'dir'>): MailTransport {
  return settings.smtpUrl ? smtpTransport(settings.smtpUrl) : emlTransport(settings.dir);
}

/**
 * SMTP through nodemailer's pool (https://nodemailer.com/smtp/pooled/; issue #39, decision 0120): up to
 * MAIL_SEND_CONCURRENCY connections, each kept open for the next messages (at most 100 each, nodemailer's default),
 * instead of a new connection, greeting, EHLO, STARTTLS and login for every message. A message's outcome is the same
 * (its error is what `send` rejects with): after a refused recipient or message nodemailer resets the session (RSET)
 * and goes on on the same connection; a connection the server dropped or that failed is replaced by a new one.
 * Each message is built in memory by nodemailer's own composer (MailComposer, what `sendMail` runs) and handed to the
 * pool whole, with the envelope the composer reads from its headers (`raw` and `envelope`,
 * https://nodemailer.com/message/custom-source/): streamed, the message reached the TLS socket in hundreds of small
 * writes, each its own TLS record and system call.
 */
function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: MAIL_SEND_CONCURRENCY, ...SMTP_TIMEOUTS_MS });
  return {
    kind: 'smtp',
    async send({ fileStem: _fileStem, ...message }) {
      const mime = new MailComposer(message).compile();
      await transporter.sendMail({ envelope: mime.getEnvelope(), raw: await mime.build() });
    },
    close: () => transporter.close(),
  };
}

/**
 * Writes each message as `<dir>/<fileStem>.eml` (CRLF line ends, RFC 5322; `dir` created when missing), through a
 * temporary file and a rename, so a reader never sees half a message and a retry of the same message replaces its file, never adds one.
 */
function emlTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'eml',
    async send({ fileStem, ...message }) {
      if (!/^[\w.-]+$/.test(fileStem)) throw new Error(`Unsafe .eml file name: ${fileStem}`);
      const info = await transporter.sendMail(message);
      const file = path.join(dir, `${fileStem}.eml`);
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, info.message as Buffer);
      } catch (error) {
        // The directory is made when a write finds it missing (at the first message, or after someone removed it),
        // not before every message (issue #39: a mkdir per receipt).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(dir, { recursive: true });
        await writeFile(temporary, info.message as Buffer);
      }
      await rename(temporary, file);
    },
    close: () => transporter.close(),
  };
}

/**
 * True when a send error is permanent and must not be retried (issue #12): an SMTP reply in the 5xx range
 * (RFC 5321 section 4.2.1, "Permanent Negative Completion"), or a message nodemailer cannot build or address.
 * Everything else is temporary: 4xx replies, connection errors and timeouts.
 */
export function isPermanentMailError(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number') return responseCode >= 500 && responseCode < 600;
  return code === 'EENVELOPE' || code === 'EMESSAGE';
}

/**
 * What of a send error may be logged and stored: the SMTP reply code and nodemailer's error code, never the
 * server's text, which often repeats the recipient's address (issue #10: no donor data in logs).
 */
export function mailErrorSummary(error: unknown): { responseCode?: number; code?: string } {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  return {
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}
