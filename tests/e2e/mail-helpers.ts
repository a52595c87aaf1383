import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect } from './fixtures';

/**
 * How often the mail waits look again, in ms: a few quick looks, then every 200 ms (the e2e servers' relay polls every
 * 200 ms, E2E_MAIL_POLL_INTERVAL_MS), instead of expect.poll's default that looks once a second after the first 2 s.
 */
export const MAIL_POLL_INTERVALS_MS = [50, 100, 200];

/**
 * The `.eml` files read so far, by path, parsed, or null when they do not name the address they were read for. The
 * relay writes each file through a temporary one and a rename, and a retry writes the same message again, so a file
 * once read never changes; each poll reads and parses only the files it has not seen.
 */
const parsedMail = new Map<string, { address: string; mail: ParsedMail | null }>();

/** The `.eml` file at `file` parsed when it names `address`, else null; read once per file and address. */
async function mailFileFor(file: string, address: string): Promise<ParsedMail | null> {
  const known = parsedMail.get(file);
  if (known?.address === address) return known.mail;
  const raw = await readFile(file);
  const mail = raw.includes(address) ? await simpleParser(raw) : null;
  parsedMail.set(file, { address, mail });
  return mail;
}

/**
 * Waits (polling, at most 15 s) for `count` e-mails of `kind` (the outbox's mail kind: `receipt`,
 * `renewal_needs_authentication`...) to `address` that the mail relay wrote as `.eml` files into `mailDir` (MAIL_DIR,
 * SMTP_URL unset; named `<time>-<kind>-<id>.eml`), and returns the latest, parsed. Fails the test when they do not arrive.
 */
export async function waitForMail(mailDir: string, address: string, kind: string, count = 1): Promise<ParsedMail> {
  return (await waitForMails(mailDir, address, kind, count)).at(-1) as ParsedMail;
}

/** As {@link waitForMail}, but returns every e-mail of `kind` to `address` found (at least `count`), oldest first. */
export async function waitForMails(mailDir: string, address: string, kind: string, count = 1): Promise<ParsedMail[]> {
  let found: ParsedMail[] = [];
  await expect
    .poll(
      async () => {
        found = [];
        // NOTE: `.eml` only: a `.tmp` file is a message still being written.
        const names = (await readdir(mailDir).catch(() => [] as string[])).filter((file) => file.includes(`-${kind}-`) && file.endsWith('.eml'));
        for (const name of names.sort()) {
          const mail = await mailFileFor(join(mailDir, name), address).catch(() => null);
          if (mail) found.push(mail);
        }
        return found.length >= count;
      },
      { timeout: 15_000, intervals: MAIL_POLL_INTERVALS_MS, message: `${count} ${kind} e-mail(s) to ${address} in ${mailDir}` },
    )
    .toBe(true);
  return found;
}

/** Waits for `count` receipt e-mails to `address` in `mailDir` (see waitForMail) and returns the latest, parsed. */
export function waitForReceipt(mailDir: string, address: string, count = 1): Promise<ParsedMail> {
  return waitForMail(mailDir, address, 'receipt', count);
}

/** The path (`/donate/manage/<token>`) of the manage link in `mail`'s text, or undefined when it has none. */
export function manageLinkPath(mail: ParsedMail): string | undefined {
  return /https?:\/\/[^\s/]+(\/donate\/manage\/[\w.-]+)/.exec(mail.text ?? '')?.[1];
}

/**
 * The paths (from the first `/` after the host, query included) of every absolute link in `mail`, in order: in its
 * plain-text part (`text`, the default) or in the `href`s of its HTML part (`html`). The e-mails' links are on
 * PUBLIC_URL, so a spec opens them by path on its own base URL; a Spanish gift's links are `/es/donate/...` (issue #24).
 */
export function linkPaths(mail: ParsedMail, part: 'text' | 'html' = 'text'): string[] {
  const pattern = part === 'text' ? /https?:\/\/[^\s/]+(\/[^\s<>"]*)/g : /href="https?:\/\/[^\s/"]+(\/[^"]*)"/g;
  const source = part === 'text' ? (mail.text ?? '') : typeof mail.html === 'string' ? mail.html : '';
  return [...source.matchAll(pattern)].map((match) => (match[1] ?? '').replaceAll('&amp;', '&'));
}
