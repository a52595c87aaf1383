import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect } from './fixtures';

/**
 * Waits (polling, at most 15 s) for `count` e-mails of `kind` (the outbox's mail kind: `receipt`,
 * `renewal_needs_authentication`...) to `address` that the mail relay wrote as `.eml` files into `mailDir` (MAIL_DIR,
 * SMTP_URL unset; named `<time>-<kind>-<id>.eml`), and returns the latest, parsed. Fails the test when they do not arrive.
 */
export async function waitForMail(mailDir: string, address: string, kind: string, count = 1): Promise<ParsedMail> {
  let found: ParsedMail[] = [];
  await expect
    .poll(
      async () => {
        found = [];
        for (const name of (await readdir(mailDir).catch(() => [] as string[])).filter((file) => file.includes(`-${kind}-`)).sort()) {
          const raw = await readFile(join(mailDir, name)).catch(() => undefined);
          if (raw?.includes(address)) found.push(await simpleParser(raw));
        }
        return found.length >= count;
      },
      { timeout: 15_000, message: `${count} ${kind} e-mail(s) to ${address} in ${mailDir}` },
    )
    .toBe(true);
  return found.at(-1) as ParsedMail;
}

/** Waits for `count` receipt e-mails to `address` in `mailDir` (see waitForMail) and returns the latest, parsed. */
export function waitForReceipt(mailDir: string, address: string, count = 1): Promise<ParsedMail> {
  return waitForMail(mailDir, address, 'receipt', count);
}

/** The path (`/donate/manage/<token>`) of the manage link in `mail`'s text, or undefined when it has none. */
export function manageLinkPath(mail: ParsedMail): string | undefined {
  return /https?:\/\/[^\s/]+(\/donate\/manage\/[\w.-]+)/.exec(mail.text ?? '')?.[1];
}
