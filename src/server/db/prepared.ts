import { sql, type Column, type Param, type Query, type SQL } from 'drizzle-orm';
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Database } from './client';

/** Turns a statement into its SQL text and parameters, as the databases of drizzleOver do (no casing option). */
const dialect = new PgDialect();

/** A statement {@link preparedStatement} made: runs it in `db` (a database or a transaction) with `values` by placeholder name. */
export type PreparedStatement<Row> = (db: Database, values: Record<string, unknown>) => Promise<Row[]>;

/**
 * A statement of a hot path (issue #39: building each statement's SQL with Drizzle's query builder was 35% of a
 * donation's CPU, decision 0115), built once per process and sent as a named prepared statement:
 * - `build` gives the statement, with `sql.placeholder(name)` (or `sql.param(sql.placeholder(name), column)`, to apply
 *   the column's driver mapping) where each call's values go; it is called once, on the first use;
 * - `name` (unique in the process, at most 63 characters: PostgreSQL's identifier length) names the statement on each
 *   connection, so the server parses and plans it once per connection (node-postgres remembers which it has);
 * - the query object is kept per database or transaction (a WeakMap), so a call fills in the values and sends.
 * Returns a function that resolves with the statement's rows as node-postgres gives them (column names as written in the
 * statement, timestamps as text), or rejects as the statement fails (in a transaction, rolling it back as usual).
 */
export function preparedStatement<Row>(name: string, build: () => SQL): PreparedStatement<Row> {
  let query: Query | undefined;
  const perDatabase = new WeakMap<Database, PgPreparedQuery<PreparedQueryConfig>>();
  return async (db, values) => {
    let prepared = perDatabase.get(db);
    if (!prepared) {
      query ??= dialect.sqlToQuery(build());
      prepared = db._.session.prepareQuery(query, undefined, name, false);
      perDatabase.set(db, prepared);
    }
    const result = (await prepared.execute(values)) as { rows: Row[] };
    return result.rows;
  };
}

/** The placeholder `name` of a prepared statement, its value sent as `column`'s driver value (as Drizzle's builders map it). */
export function columnPlaceholder(name: string, column: Column): Param {
  return sql.param(sql.placeholder(name), column);
}
