/**
 * Names of time zones as the IANA database Node carries spells them (the staff's `TZ`; issue #14, decision 0062): what
 * configuration needs to check TZ at start-up. The digest's calendar arithmetic in a zone is digest/time-zone.ts.
 */

/**
 * The IANA name Intl knows `name` by (`america/belize` -> `America/Belize`), or undefined when it knows no such zone
 * (TZ's validation, config.ts).
 */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
