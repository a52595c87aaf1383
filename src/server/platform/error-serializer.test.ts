import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { serializeError } from './error-serializer';

/** serializeError (issue #10, part 3): what of an error reaches the log. */
describe('serializeError', () => {
  const databaseError = Object.assign(new Error('duplicate key value violates unique constraint "donations_email_key"'), {
    code: '23505',
    severity: 'ERROR',
    table: 'donations',
    constraint: 'donations_email_key',
    detail: 'Key (donor_email)=(ana@example.org) already exists.',
    where: 'SQL statement "INSERT ... VALUES (\'Ana Reef\')"',
    internalQuery: "SELECT 'Ana Reef'",
  });
  const queryError = new DrizzleQueryError('insert into "donations" ("donor_name") values ($1)', ['Ana Reef', 'ana@example.org'], databaseError);

  it('keeps the query text, the SQLSTATE and the names of what failed; drops parameters and quoted values', () => {
    const serialized = serializeError(queryError) as Record<string, unknown>;
    const text = JSON.stringify(serialized);
    expect(text).not.toContain('Ana Reef');
    expect(text).not.toContain('ana@example.org');
    expect(serialized).toMatchObject({
      type: 'DrizzleQueryError',
      query: 'insert into "donations" ("donor_name") values ($1)',
      cause: { code: '23505', severity: 'ERROR', table: 'donations', constraint: 'donations_email_key' },
    });
    expect(serialized.cause).not.toHaveProperty('detail');
    expect(serialized.message).toBe(
      'Failed query: insert into "donations" ("donor_name") values ($1): duplicate key value violates unique constraint "donations_email_key"',
    );
    expect(serialized.stack).toMatch(/^Error: Failed query: insert into[^\n]*\n {4}at /);
  });

  it('keeps the primitive fields of other errors, and passes a value that is not an error through', () => {
    const error = Object.assign(new TypeError('boom'), { code: 'E_BOOM', statusCode: 500, nested: { donorName: 'Ana Reef' } });
    expect(serializeError(error)).toMatchObject({ type: 'TypeError', message: 'boom', code: 'E_BOOM', statusCode: 500 });
    expect(JSON.stringify(serializeError(error))).not.toContain('Ana Reef');
    expect(serializeError('a string')).toBe('a string');
  });
});
