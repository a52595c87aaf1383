import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_API, staffApiPath } from '../../shared/staff/paths';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { signInStaffForTest, type StaffTestSession } from '../staff/identity/testing/staff-session';
import { createTestApp, type TestApp } from '../testing/test-app';
import { startWebhookReceiver } from '../testing/webhook-receiver';
import { checkTarget, type ResolvedAddress, type TargetPolicy } from './target';

/**
 * Webhooks are not a door into the charity's network (issue #38; OWASP SSRF Prevention Cheat Sheet): loopback, 10.x,
 * 169.254.169.254, [::1], an IPv4-mapped loopback and a name resolving to a private address are refused when saved,
 * a name that resolves to a private address at delivery time (DNS rebinding) is refused then and never connected to,
 * and a redirect is never followed. The app runs WITHOUT WEBHOOKS_ALLOW_PRIVATE_TARGETS, with an injected resolver.
 */

/** What the injected resolver answers, by host name. */
const dns = new Map<string, ResolvedAddress[]>();
let t: TestApp;
let admin: StaffTestSession;

beforeAll(async () => {
  t = await createTestApp({
    webhookResolver: async (hostname) => {
      const found = dns.get(hostname);
      if (!found) throw new Error(`ENOTFOUND ${hostname}`);
      return found;
    },
  });
  admin = await signInStaffForTest(t.app, t.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const add = (url: string) => t.app.inject({ method: 'POST', url: STAFF_API.integrations, headers: admin.headers, payload: { url, events: ['donation.succeeded'], includeContact: false } });

describe('saving an endpoint', () => {
  it('refuses loopback, 10.x, 169.254.169.254, [::1], an IPv4-mapped loopback and a name resolving to a private address', async () => {
    dns.set('crm.internal.example', [{ address: '10.20.30.40', family: 4 }]);
    dns.set('mixed.example', [{ address: '93.184.216.34', family: 4 }, { address: 'fd00::1', family: 6 }]);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fe80::1]/hook',
      'http://crm.internal.example/hook',
      'http://mixed.example/hook',
    ]) {
      const answer = await add(url);
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json().fieldErrors.url, url).toMatch(/resolves to a (loopback|private|linkLocal|uniqueLocal|ipv4Mapped|reserved) address/);
    }
    expect(await t.db.select().from(webhookEndpoints)).toEqual([]);
  });

  it('accepts a public address', async () => {
    dns.set('crm.example.org', [{ address: '93.184.216.34', family: 4 }]);
    expect((await add('https://crm.example.org/hook')).statusCode).toBe(201);
    await t.db.delete(webhookEndpoints);
  });

  it('refuses http:// in production and IP ranges by the library, IPv4 and IPv6', async () => {
    const policy: TargetPolicy = { resolve: async () => [], allowPrivate: false, allowHttp: false };
    expect(await checkTarget('http://93.184.216.34/', policy)).toMatchObject({ refused: 'The address must start with https://' });
    for (const host of ['192.168.1.1', '172.16.0.1', '100.64.0.1', '0.0.0.0', '[::]', '[fc00::1]', '[2001:db8::1]', '224.0.0.1']) {
      expect(await checkTarget(`https://${host}/`, policy), host).toMatchObject({ retryable: false });
    }
    expect(await checkTarget('https://[2606:4700::1111]/', policy)).toMatchObject({ address: { address: '2606:4700::1111', family: 6 } });
  });
});

describe('delivering', () => {
  it('checks again at every delivery: a name that now resolves to loopback is refused, never connected to', async () => {
    const receiver = await startWebhookReceiver();
    try {
      dns.set('rebind.example.org', [{ address: '93.184.216.34', family: 4 }]);
      const port = new URL(receiver.url).port;
      const created = await add(`http://rebind.example.org:${port}/hook`);
      expect(created.statusCode).toBe(201);
      const { endpoint } = created.json() as { endpoint: { id: string } };
      dns.set('rebind.example.org', [{ address: '127.0.0.1', family: 4 }]);
      expect((await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.integrationTest, endpoint.id), headers: admin.headers })).statusCode).toBe(202);
      expect(await t.app.webhooks.relayDue()).toMatchObject({ failed: 1 });
      expect(receiver.received).toEqual([]);
      const [attempt] = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id));
      expect(attempt).toMatchObject({ statusCode: null, error: expect.stringContaining('resolves to a loopback address (127.0.0.1)') });
    } finally {
      await receiver.close();
      await t.db.delete(webhookEndpoints);
    }
  });

  it('does not follow a redirect to a private address', async () => {
    const target = await startWebhookReceiver();
    const redirector = await startWebhookReceiver();
    try {
      redirector.fallback = { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      target.fallback = { status: 200 };
      // The redirector stands for a public host (its name resolves to a public address when saved), reached on loopback
      // only because this test allows it for the delivery: the app's own policy is switched for this one run.
      dns.set('redirect.example.org', [{ address: '93.184.216.34', family: 4 }]);
      const created = await add(`http://redirect.example.org:${new URL(redirector.url).port}/hook`);
      const { endpoint } = created.json() as { endpoint: { id: string } };
      dns.set('redirect.example.org', [{ address: '127.0.0.1', family: 4 }]);
      const policy = t.app.webhooks.policy as { allowPrivate: boolean };
      policy.allowPrivate = true;
      try {
        await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.integrationTest, endpoint.id), headers: admin.headers });
        expect(await t.app.webhooks.relayDue()).toMatchObject({ failed: 1 });
      } finally {
        policy.allowPrivate = false;
      }
      expect(redirector.received).toHaveLength(1);
      expect(target.received).toEqual([]);
      const [delivery] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
      expect(delivery).toMatchObject({ status: 'failed', lastError: 'HTTP 307' });
    } finally {
      await target.close();
      await redirector.close();
    }
  });
});
