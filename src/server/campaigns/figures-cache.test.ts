import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../db/schema';
import { manualClock } from '../platform/clock';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * A campaign's public figures are kept a minute (issue #34: "figures at most 60 seconds old", "summarised or cached,
 * not a scan per request"; decision 0101), through the real app and database, with the app's clock moved by hand.
 */

const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
  await t.db.insert(campaigns).values({ slug: 'spring', texts: { en: { title: 'Spring appeal', description: '' } }, published: true });
});
afterAll(async () => {
  await t?.close();
});

const figures = () => t.app.inject({ method: 'GET', url: '/api/campaigns/spring' });

describe("a campaign's public figures", () => {
  it('are read once a minute: a gift shows within 60 s, and the answer is cacheable for what is left of the minute', async () => {
    const first = await figures();
    expect(first.json()).toMatchObject({ raisedCents: 0, donorCount: 0 });
    expect(first.headers['cache-control']).toBe('public, max-age=60');

    expect((await t.postDonation(validSubmission({ amount: 50, campaign: 'spring' }))).statusCode).toBe(200);
    clock.advance(45_000);
    const kept = await figures();
    expect(kept.json()).toMatchObject({ raisedCents: 0, donorCount: 0 });
    expect(kept.headers['cache-control']).toBe('public, max-age=15');

    clock.advance(15_000);
    const fresh = await figures();
    expect(fresh.json()).toMatchObject({ raisedCents: 5000, donorCount: 1 });
    expect(fresh.headers['cache-control']).toBe('public, max-age=60');
  });
});

describe('a campaign asked for often', () => {
  it('has its figures read again in the background in their last 10 s, so no request waits on the count', async () => {
    await figures();
    clock.advance(60_000);
    const start = await figures();
    const raised = start.json<{ raisedCents: number }>().raisedCents;
    expect((await t.postDonation(validSubmission({ amount: 20, campaign: 'spring' }))).statusCode).toBe(200);
    clock.advance(55_000);
    // Answered from what was kept (55 s old), while the read of the new figures starts.
    const kept = await figures();
    expect(kept.json()).toMatchObject({ raisedCents: raised });
    expect(kept.headers['cache-control']).toBe('public, max-age=5');
    await expect.poll(async () => (await figures()).json<{ raisedCents: number }>().raisedCents).toBe(raised + 2000);
    expect((await figures()).headers['cache-control']).toBe('public, max-age=60');
  });
});
