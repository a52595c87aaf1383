import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { ServerConfig } from '../../platform/config';
import type { StaffLimits } from './limits';
import type { StaffLinks } from './links';
import type { RelyingParty } from './relying-party';
import type { SessionCookieSettings } from './session-cookie';

/** What the staff plugin needs (registerStaff). */
export interface StaffOptions {
  db: Database;
  config: ServerConfig;
  /** The injected clock (DESIGN.md, "Time"): session timeouts, link and challenge expiry. */
  clock: Clock;
}

/** What each staff route plugin gets: the plugin's options, the session cookie's settings, links, relying party and limits. */
export interface StaffRouteOptions extends StaffOptions {
  cookie: SessionCookieSettings;
  links: StaffLinks;
  relyingParty: RelyingParty;
  limits: StaffLimits;
}
