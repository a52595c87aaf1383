import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../shared/api';
import { csrfHeaders } from '../testing/server-process';
import { useServerWorkspace, useWorkspacePool } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';
import { newWebhookSecret } from './sign';

/**
 * Issue #38: "a SIGKILL between commit and delivery still delivers". The production server runs with a relay that,
 * after its start-up run, waits a day; a donation commits its `donation.succeeded` delivery; the server is killed with
 * SIGKILL before the relay could send it; restarted on the same data, its start-up run delivers it, validly signed.
 */

const workspace = useServerWorkspace('webhooks-crash');
const pool = useWorkspacePool(workspace);
let receiver: WebhookReceiver;
const secret = newWebhookSecret();

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.secrets = [secret];
});
afterAll(async () => {
  await receiver?.close();
});

// One relay run at start-up, then a day's wait: only a restart can deliver what a donation recorded meanwhile.
const start = () => workspace.start({ WEBHOOK_POLL_INTERVAL_MS: String(24 * 60 * 60 * 1000), WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'on' });

describe('a crash between the donation commit and the webhook relay', () => {
  it('delivers the event after the restart, once', async () => {
    await pool().query(`INSERT INTO webhook_endpoints (url, event_types, include_contact, secret) VALUES ($1, ARRAY['donation.succeeded'], true, $2)`, [receiver.url, secret]);
    const first = await start();
    const answer = await fetch(`${first.baseUrl}${API_PATHS.processDonation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await csrfHeaders(first.baseUrl)) },
      body: JSON.stringify(validSubmission({ donorEmail: 'crash@example.org' })),
    });
    expect(answer.status).toBe(200);
    await first.kill();
    expect(receiver.received).toEqual([]);
    const { rows } = await pool().query<{ status: string }>('SELECT status FROM webhook_deliveries');
    expect(rows).toEqual([{ status: 'pending' }]);

    const second = await start();
    await second.waitForLine((line) => line.includes('"event":"webhook.delivered"'), 30_000);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ verifiedWith: [secret], body: { type: 'donation.succeeded', data: { donation: { donor: { email: 'crash@example.org' } } } } });
    await second.stop();
  }, 120_000);
});
