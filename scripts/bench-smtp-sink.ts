import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listenOnFreePort, SMTPServerWithoutGreetingDelay } from '../src/server/testing/smtp-server-without-greeting-delay';

/** The receipts an SMTP sink accepted, and when it accepted the last (ms since the epoch). */
export interface SinkReceipts {
  count: number;
  lastWrittenMs: number;
}

/** The connections an SMTP sink was opened, and the messages it accepted, all and over TLS. */
export interface SinkTraffic {
  connections: number;
  messages: number;
  messagesOverTls: number;
}

/** A running SMTP sink: its URL for SMTP_URL, the certificate the API must trust, what it received so far, and close. */
export interface SmtpSink {
  url: string;
  /** The sink's self-signed certificate (PEM file), for the API process's NODE_EXTRA_CA_CERTS. */
  certificateFile: string;
  receipts(): SinkReceipts;
  traffic(): SinkTraffic;
  close(): Promise<void>;
}

/** A receipt's Message-ID (outbox.ts `messageIdOf`: `<kind.outbox id@domain>`), in the message's header. */
const RECEIPT_MESSAGE_ID = /^Message-ID: <receipt\./im;
/** How much of a message's start is kept to find its Message-ID: the headers come first and are shorter than this. */
const HEAD_BYTES = 4096;

/**
 * A self-signed certificate for 127.0.0.1 (RSA 2048, a day) made with the machine's `openssl` in a new temporary
 * folder: the folder, the key and the certificate.
 */
async function selfSignedCertificate(): Promise<{ dir: string; key: Buffer; cert: Buffer; certificateFile: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-smtp-'));
  const keyFile = path.join(dir, 'key.pem');
  const certificateFile = path.join(dir, 'cert.pem');
  const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', ...subject, '-keyout', keyFile, '-out', certificateFile], { stdio: 'ignore' });
  return { dir, key: await readFile(keyFile), cert: await readFile(certificateFile), certificateFile };
}

/**
 * An SMTP server that accepts every message and keeps nothing but a count of the receipts (issue #39: `npm run bench`
 * with BENCH_MAIL=smtp sends the receipts over SMTP, as a deployment with SMTP_URL does, instead of writing `.eml`
 * files). Like a provider's submission port, it offers STARTTLS (a self-signed certificate the API process is given
 * to trust), which nodemailer takes when offered; no login. It greets at once (smtp-server-without-greeting-delay.ts)
 * and runs in the benchmark's process, whose CPU is not the API's. Throws when `openssl` is missing.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const tls = await selfSignedCertificate();
  let count = 0;
  let lastWrittenMs = 0;
  const traffic: SinkTraffic = { connections: 0, messages: 0, messagesOverTls: 0 };
  const server = new SMTPServerWithoutGreetingDelay({
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH'],
    key: tls.key,
    cert: tls.cert,
    logger: false,
    closeTimeout: 1_000,
    onConnect(_session, callback) {
      traffic.connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < HEAD_BYTES) head += chunk.toString('latin1', 0, HEAD_BYTES);
      });
      stream.on('end', () => {
        traffic.messages += 1;
        if (session.secure) traffic.messagesOverTls += 1;
        if (RECEIPT_MESSAGE_ID.test(head)) {
          count += 1;
          lastWrittenMs = Date.now();
        }
        callback();
      });
    },
  });
  const port = await listenOnFreePort(server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    certificateFile: tls.certificateFile,
    receipts: () => ({ count, lastWrittenMs }),
    traffic: () => ({ ...traffic }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(tls.dir, { recursive: true, force: true });
    },
  };
}
