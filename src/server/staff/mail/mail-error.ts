/**
 * A message's last error in words for staff (issue #22, "Mail": "last error"). The relay stores it as JSON
 * (mail/relay.ts: the SMTP reply code, nodemailer's error code and the error's name; never an address).
 */

/**
 * `last_error` as staff read it: `SMTP 550: refused for good (EENVELOPE)`, `SMTP 451: refused for now...`, the error
 * code alone when there was no SMTP reply (`ECONNREFUSED`: the mail server could not be reached), or the text itself
 * when it is not the relay's JSON.
 */
export function describeMailError(lastError: string): string {
  let parsed: { responseCode?: unknown; code?: unknown; name?: unknown };
  try {
    parsed = JSON.parse(lastError) as typeof parsed;
  } catch {
    return lastError;
  }
  if (typeof parsed !== 'object' || parsed === null) return lastError;
  const code = typeof parsed.code === 'string' ? ` (${parsed.code})` : '';
  if (typeof parsed.responseCode === 'number') {
    const meaning = parsed.responseCode >= 500 ? 'refused for good by the receiving server' : 'refused for now by the receiving server';
    return `SMTP ${parsed.responseCode}: ${meaning}${code}`;
  }
  if (typeof parsed.code === 'string') return `The mail server could not be used (${parsed.code})`;
  return typeof parsed.name === 'string' ? `The message could not be sent (${parsed.name})` : lastError;
}
