/**
 * What validates a stored value: a zod schema fits, and so does a light hand-written check (the
 * selection screen validates without zod to keep it off /donate, see stored-values.ts).
 */
export interface SessionValidator<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/**
 * sessionStorage keys of the donation state (issue #2: the selection and the result live in
 * sessionStorage so a reload keeps the donor where they were). No card field is ever stored.
 */
export const SESSION_KEYS = {
  selection: 'reef-donations.selection',
  result: 'reef-donations.result',
  /** The campaign slug of the link the donor came by (issue #23), kept until the tab closes. */
  campaign: 'reef-donations.campaign',
} as const;

/** One of {@link SESSION_KEYS}. */
export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

/** sessionStorage, or null where the browser refuses it (privacy modes, disabled storage). */
function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Reads `key` and validates it with `schema`. Returns the parsed value, or null when the key is
 * absent or holds anything the schema rejects (which is then removed, so it cannot come back).
 */
export function readSessionItem<T>(key: SessionKey, schema: SessionValidator<T>): T | null {
  const store = storage();
  const text = store?.getItem(key);
  if (!store || text == null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: fall through and drop it
  }
  store.removeItem(key);
  return null;
}

/**
 * Stores `value` under `key` as JSON after validating it with `schema` (strict schemas keep
 * anything extra, such as card fields, out). An invalid value removes the key instead.
 */
export function writeSessionItem<T>(key: SessionKey, schema: SessionValidator<T>, value: T): void {
  const store = storage();
  if (!store) return;
  const parsed = schema.safeParse(value);
  try {
    if (parsed.success) store.setItem(key, JSON.stringify(parsed.data));
    else store.removeItem(key);
  } catch {
    // quota exceeded or storage refused: the in-memory state still works
  }
}

/** Removes `key` from sessionStorage. */
export function removeSessionItem(key: SessionKey): void {
  storage()?.removeItem(key);
}
