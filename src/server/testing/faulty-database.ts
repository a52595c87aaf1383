import { drizzleOver, type Database, type DatabaseHandle } from '../db/client';

/**
 * A fault point in the database connection (issue #3: faults "injected through ... the database
 * connection, not by editing production code paths"): a Drizzle database over a proxy of the driver's own
 * client (the node-postgres pool) whose query methods reject, while `down`, with the
 * error a driver gives for a server it cannot reach. The app under test runs on `db`; the test keeps using
 * the straight database to set up and check rows.
 */
export interface FaultyDatabase {
  db: Database;
  /** While true, every query (and every connection or transaction the pool would open) fails. */
  down: boolean;
}

/** The methods through which Drizzle reaches the server: a query on the pool, or a connection for a transaction. */
const QUERY_METHODS = new Set(['query', 'connect']);

/** An error shaped like node-postgres' when the server is unreachable. */
function unreachable(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432 (injected fault)'), { code: 'ECONNREFUSED' });
}

/** Wraps the driver client of `handle`; see {@link FaultyDatabase}. The database starts up (`down: false`). */
export function faultyDatabase(handle: DatabaseHandle): FaultyDatabase {
  let down = false;
  const proxy = <T extends object>(client: T): T =>
    new Proxy(client, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        // NOTE: bound to the real pool: its methods use private state a proxy cannot reach.
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (typeof property !== 'string' || !QUERY_METHODS.has(property)) return method;
        return (...args: unknown[]) => (down ? Promise.reject(unreachable()) : method(...args));
      },
    });
  return {
    db: drizzleOver(proxy(handle.client)),
    get down() {
      return down;
    },
    set down(value: boolean) {
      down = value;
    },
  };
}
