import type { LightMyRequestResponse } from 'fastify';
import { CSRF_HEADER_NAME } from '../../../../shared/api';
import type { App } from '../../../app';
import { csrfCredentialsOf, setCookies, type CsrfCredentials } from '../../../testing/test-app';
import { SoftwareAuthenticator } from './software-authenticator';

/**
 * A staff member's browser for the identity tests (issue #21): its CSRF cookies (from loading the page), its staff
 * session cookie as the server last set or cleared it, and a software authenticator at the app's origin. Requests go
 * through `app.inject`, as the pages' would.
 */
export class StaffBrowser {
  /** The session cookie's value, or undefined when none is held. */
  sessionId: string | undefined;
  readonly authenticator: SoftwareAuthenticator;

  private constructor(
    private readonly app: App,
    private readonly csrf: CsrfCredentials,
    origin: string,
  ) {
    this.authenticator = new SoftwareAuthenticator(origin);
  }

  /** A browser that loaded the page of `app`, whose WebAuthn calls run at `origin` (PUBLIC_URL's). */
  static async open(app: App, origin: string): Promise<StaffBrowser> {
    return new StaffBrowser(app, await csrfCredentialsOf(app), origin);
  }

  /** The headers the browser sends: its cookies and the CSRF header. */
  headers(): Record<string, string> {
    const session = this.sessionId === undefined ? '' : `; ${this.app.staffSessionCookieName}=${this.sessionId}`;
    return { cookie: `${this.csrf.cookie}${session}`, [CSRF_HEADER_NAME]: this.csrf.token };
  }

  /** Sends a request and keeps the session cookie the answer sets or clears. */
  async request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({ method, url, headers: this.headers(), ...(payload === undefined ? {} : { payload }) });
    const cookie = setCookies(response).get(this.app.staffSessionCookieName);
    if (cookie !== undefined) this.sessionId = cookie === '' ? undefined : cookie;
    return response;
  }
}
