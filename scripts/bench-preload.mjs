// @ts-check
/**
 * Preloaded into the API processes of `npm run bench` only (`node --import ./scripts/bench-preload.mjs`; issue #39);
 * never loaded by the server itself. Two things:
 * - React's production build, as a deployed server runs it (README: `NODE_ENV=production npm start`): the bench's
 *   server runs with NODE_ENV=benchmark, since production refuses RATE_LIMITS=off, and React picks its development
 *   build (slower, with its checks) when NODE_ENV is not `production`. The React modules the e-mails use are loaded
 *   here first with NODE_ENV=production, then NODE_ENV is put back, so the server's own configuration sees `benchmark`.
 * - With BENCH_QUERY_COUNT_FILE set, the statements the process sends to PostgreSQL (each a round trip: node-postgres
 *   sends one query at a time per connection), counted by wrapping pg's `Client.prototype.query` and written to that
 *   file every 100 ms, asynchronously (a synchronous write blocked the event loop whenever the disk was busy).
 */
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

// NOTE: the server imports these (CommonJS) from the repository's node_modules: the same module instances as these requires.
const require = createRequire(path.join(process.cwd(), 'package.json'));

const nodeEnv = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
for (const name of ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/server']) require(name);
process.env.NODE_ENV = nodeEnv;

const file = process.env.BENCH_QUERY_COUNT_FILE;
if (file) {
  const pg = require('pg');
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function countedQuery(...args) {
    count += 1;
    return query.apply(this, args);
  };
  let writing = false;
  setInterval(() => {
    if (writing) return;
    writing = true;
    // NOTE: through a temporary file and a rename: the bench read a file half rewritten once (a count of -0.9 statements
    // per gift on a loaded machine).
    void writeFile(`${file}.tmp`, String(count))
      .then(() => rename(`${file}.tmp`, file))
      .finally(() => {
        writing = false;
      });
  }, 100).unref();
}
