import { DrizzleQueryError } from 'drizzle-orm/errors';
import { stdSerializers } from 'pino';

/**
 * The `err` serializer of every log line (issue #10, part 3: "logs never carry a donor's name, e-mail,
 * phone, address or message, in any error path"; OWASP Logging Cheat Sheet, "Data to exclude").
 *
 * A failed Drizzle query's message holds every SQL parameter (`Failed query: ...\nparams: <the row>`), and a
 * PostgreSQL error's `detail`, `where` and `internalQuery` can quote values (`Key (donor_email)=(...)`). So
 * before pino's standard serializer runs, each error of the `cause` chain is copied without them:
 * - a Drizzle query error keeps the query's text, never its parameters;
 * - a database error (node-postgres: it has a SQLSTATE `code` and a `severity`) keeps its message,
 *   SQLSTATE and the names of what failed (schema, table, column, constraint, routine);
 * - any other error keeps its message and its own properties of primitive type.
 * Stacks are rebuilt from the safe message and the original frames.
 */

/** Properties of a database error that name what failed and never quote a value. */
const DATABASE_ERROR_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'];

/** How deep a `cause` chain is followed (a cycle or a very long chain stops here). */
const MAX_CAUSE_DEPTH = 5;

const isError = (value: unknown): value is Error => value instanceof Error;

/** True for a node-postgres `DatabaseError`: a 5-character SQLSTATE code and a severity. */
function isDatabaseError(error: Error): boolean {
  const fields = error as unknown as Record<string, unknown>;
  return typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code) && typeof fields.severity === 'string';
}

/** The message and own fields of `error` that may go to a log. */
function safeParts(error: Error): { message: string; fields: Record<string, unknown> } {
  const own = error as unknown as Record<string, unknown>;
  if (error instanceof DrizzleQueryError) return { message: `Failed query: ${error.query}`, fields: { query: error.query } };
  const names = isDatabaseError(error)
    ? DATABASE_ERROR_FIELDS
    : Object.keys(own).filter((key) => key !== 'cause' && ['string', 'number', 'boolean'].includes(typeof own[key]));
  const fields = Object.fromEntries(names.filter((key) => own[key] !== undefined).map((key) => [key, own[key]]));
  return { message: error.message, fields };
}

/** A copy of `error` and its causes holding only {@link safeParts}. */
function sanitized(error: Error, depth = 0): Error {
  const { message, fields } = safeParts(error);
  const cause = depth < MAX_CAUSE_DEPTH && isError(error.cause) ? sanitized(error.cause, depth + 1) : undefined;
  const copy = Object.assign(new Error(message, cause ? { cause } : undefined), fields);
  copy.name = error.name;
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  copy.stack = [`${error.name}: ${message}`, ...frames].join('\n');
  return copy;
}

/**
 * pino's `err` serializer for the server's logger: takes whatever was logged under `err` and returns
 * pino's standard shape (`type`, `message`, `stack`, own fields, and `cause` serialized the same way) of a
 * copy without SQL parameters or quoted values (see the module comment). A value that is not an Error is passed to pino's serializer as is.
 */
export function serializeError(value: unknown): unknown {
  if (!isError(value)) return stdSerializers.err(value as Error);
  const serialized = stdSerializers.err(sanitized(value));
  // NOTE: pino folds a cause's message and stack into its error's, but not its fields (the SQLSTATE): keep them.
  const cause = isError(value.cause) ? { cause: serializeError(value.cause) } : {};
  return { ...serialized, type: value.constructor.name, ...cause };
}
