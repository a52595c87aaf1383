import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import type { ServerConfig } from '../platform/config';
import type { SessionCookieSettings } from './session-cookie';

/** What the staff plugin needs (registerStaff). */
export interface StaffOptions {
  db: Database;
  config: ServerConfig;
  /** The injected clock (DESIGN.md, "Time"): session timeouts, link and challenge expiry. */
  clock: Clock;
}

/** What each staff route plugin gets: the plugin's options and the session cookie's settings. */
export interface StaffRouteOptions extends StaffOptions {
  cookie: SessionCookieSettings;
}
