// @ts-check
/**
 * Preloaded into the API processes of `npm run bench` only (`node --import ./scripts/bench-count-queries.mjs`; issue #39):
 * counts the statements the process sends to PostgreSQL (each a round trip: node-postgres sends one query at a
 * time per connection) by wrapping pg's `Client.prototype.query`, and writes the count to the file named by
 * BENCH_QUERY_COUNT_FILE every 100 ms. Never loaded by the server itself.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const file = process.env.BENCH_QUERY_COUNT_FILE;
if (file) {
  // NOTE: the server imports `pg` (CommonJS) from the repository's node_modules: the same module instance as this require.
  const pg = createRequire(path.join(process.cwd(), 'package.json'))('pg');
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function countedQuery(...args) {
    count += 1;
    return query.apply(this, args);
  };
  setInterval(() => writeFileSync(file, String(count)), 100).unref();
}
