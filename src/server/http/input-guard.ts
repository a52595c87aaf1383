import { hasUnsupportedCharacters, UNSUPPORTED_CHARACTERS_MESSAGE, withLineFeeds } from '../../shared/field-rules';

/**
 * The guard of every input of every route (issue #32, parts 1 and 2; decision 0096): whatever a route's schema says,
 * a string anywhere in a request's body, query string or path parameters that holds a character no text may hold
 * (shared/field-rules.ts hasUnsupportedCharacters: C0 and C1 controls but tab, line feed and carriage return, DEL,
 * bidirectional controls, lone surrogates), or a query or path value over {@link MAX_ADDRESS_VALUE_LENGTH}, is refused
 * with 400 naming its field, before any handler runs. The schemas built with field-rules' textField refuse the same
 * characters with the same message; this guard is for the strings a schema leaves open (a `z.string()` forgotten, an
 * open record, an array), so PostgreSQL never sees a NUL and staff never read a reordered text.
 */

/** Longest query or path value the guard lets through to a route's schema, in characters (no route needs more). */
export const MAX_ADDRESS_VALUE_LENGTH = 1_000;

/** `fieldErrors` message of a query or path value over {@link MAX_ADDRESS_VALUE_LENGTH}. */
export const VALUE_TOO_LONG_MESSAGE = `Use at most ${MAX_ADDRESS_VALUE_LENGTH.toLocaleString('en-US')} characters`;

/**
 * A key of a client's object that may be echoed back as (part of) a field's path: a plain identifier or an index.
 * Anything else (say, a card number used as a key) is reported on its parent instead.
 */
export const SAFE_KEY = /^[A-Za-z0-9_]{1,64}$/;

/** The parts of a request the guard reads, as Fastify's validator compiler names them (`headers` are left alone). */
const GUARDED_PARTS = new Set(['body', 'querystring', 'params']);

/** A refused value as a validation issue, in the shape errors.ts toFieldErrors reads (its path as a JSON pointer). */
export interface InputGuardIssue {
  keyword: 'input_guard';
  instancePath: string;
  schemaPath: '#';
  message: string;
  params: Record<string, never>;
}

const issueAt = (path: readonly string[], message: string): InputGuardIssue => ({
  keyword: 'input_guard',
  instancePath: path.map((key) => `/${key}`).join(''),
  schemaPath: '#',
  message,
  params: {},
});

/**
 * True when `text` holds an unsupported character, so the guard refuses it. NOTE: read as field-rules' textField reads
 * a message: trimmed (the white space around it, a vertical tab or form feed too, is dropped, not refused), CRLF and CR
 * as LF, tab and line feed allowed: whether a field takes several lines is its schema's call. Exported for a route
 * that names such a character better than the guard would (the CSV import names its row and column; issue #37).
 */
export const refusedText = (text: string) => hasUnsupportedCharacters(withLineFeeds(text.trim()), 'multi');

/**
 * The issues of `data`, the `httpPart` of a request (`body`, `querystring`, `params`; none for another part): one per
 * string (or object key, reported on its parent) that {@link refusedText} refuses, and per query or path string over
 * {@link MAX_ADDRESS_VALUE_LENGTH}. Walks plain objects and arrays only (a raw Buffer body, a webhook's, is not text).
 * Never reads or returns the values beyond testing them.
 */
export function inputGuardIssues(data: unknown, httpPart: string | undefined): InputGuardIssue[] {
  if (httpPart === undefined || !GUARDED_PARTS.has(httpPart)) return [];
  const maxLength = httpPart === 'body' ? Number.POSITIVE_INFINITY : MAX_ADDRESS_VALUE_LENGTH;
  const issues: InputGuardIssue[] = [];
  // NOTE: a path with nothing a client may name safely is reported as the part itself (`body`, `querystring`...).
  const add = (path: readonly string[], message: string) => issues.push(issueAt(path.length > 0 ? path : [httpPart], message));
  const visit = (value: unknown, path: string[]) => {
    if (typeof value === 'string') {
      if (refusedText(value)) add(path, UNSUPPORTED_CHARACTERS_MESSAGE);
      else if (value.length > maxLength) add(path, VALUE_TOO_LONG_MESSAGE);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, String(index)]));
    } else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
      for (const [key, child] of Object.entries(value)) {
        // NOTE: keys are the client's: a refused one, or one that is no plain identifier, is reported on its parent.
        if (refusedText(key)) add(path, UNSUPPORTED_CHARACTERS_MESSAGE);
        else visit(child, SAFE_KEY.test(key) ? [...path, key] : path);
      }
    }
  };
  visit(data, []);
  return issues;
}
