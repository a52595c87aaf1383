import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect } from './fixtures';

/**
 * Waits (polling, at most 15 s) for the receipt e-mail to `address` that the mail relay wrote as an `.eml` file into
 * `mailDir` (MAIL_DIR, SMTP_URL unset), and returns it parsed. Fails the test when none arrives.
 */
export async function waitForReceipt(mailDir: string, address: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        for (const name of (await readdir(mailDir).catch(() => [] as string[])).filter((file) => file.includes('-receipt-'))) {
          const raw = await readFile(join(mailDir, name)).catch(() => undefined);
          if (raw?.includes(address)) found = await simpleParser(raw);
        }
        return found !== undefined;
      },
      { timeout: 15_000, message: `the receipt e-mail to ${address} in ${mailDir}` },
    )
    .toBe(true);
  return found as ParsedMail;
}

/** The path (`/donate/manage/<token>`) of the manage link in `mail`'s text, or undefined when it has none. */
export function manageLinkPath(mail: ParsedMail): string | undefined {
  return /https?:\/\/[^\s/]+(\/donate\/manage\/[\w.-]+)/.exec(mail.text ?? '')?.[1];
}
