import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CampaignFiguresSchema } from '../../shared/campaign-api';
import { adminDonationRefundPath } from '../admin/paths';
import { campaigns, donations, recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { insertCampaign } from './testing/campaign-rows';

/**
 * Campaigns' public figures (issue #34, "What counts" and "GET /api/campaigns/<slug>"; decision 0101), through the real
 * app, database, test gateway, operator refunds and billing run: the covered fee left out, partial and full refunds,
 * declines, renewals inside and outside the campaign's dates, one donor per address, slugs, dates, and bad input.
 */

const ADMIN_TOKEN = 'campaign-test-admin-token-0123456789abcdef';
const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  // NOTE: figures kept 0 ms, so each request counts again (the minute's cache has a test of its own below).
  t = await createTestApp({ clock, env: { ADMIN_TOKEN, CAMPAIGN_FIGURES_MAX_AGE_MS: '0' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  await t.db.delete(campaigns);
  clock.set(new Date());
});

const HOUR_MS = 3_600_000;

/** Writes a campaign `slug` (published unless said), with the columns of `values`. */
const campaign = (slug: string, values: Parameters<typeof insertCampaign>[2] = {}) => insertCampaign(t.db, slug, values);

/** GET /api/campaigns/<slug> with `query`. */
const figuresOf = (slug: string, query = '') => t.app.inject({ method: 'GET', url: `/api/campaigns/${slug}${query}` });

/** The public figures of `slug`, asserting a 200. */
async function figures(slug: string) {
  const answer = await figuresOf(slug);
  expect(answer.statusCode, answer.body).toBe(200);
  return CampaignFiguresSchema.parse(answer.json());
}

/** A gift by the campaign link `slug`; resolves with its donation row. */
async function give(slug: string, overrides: Parameters<typeof validSubmission>[0] = {}, card = '4242424242424242') {
  const answer = await t.postDonation(validSubmission({ campaign: slug, ...overrides }, { number: card }));
  const transactionId = answer.json<{ data?: { transactionId: string } }>().data?.transactionId;
  const [row] = transactionId
    ? await t.db.select().from(donations).where(eq(donations.gatewayTransactionId, transactionId))
    : await t.db.select().from(donations).where(eq(donations.status, 'failed'));
  return row!;
}

/** An operator's refund of `amount` dollars (all that is left without it) of the donation `id`. */
async function refund(id: string, amount?: number) {
  const answer = await t.app.inject({
    method: 'POST',
    url: adminDonationRefundPath(id),
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': randomUUID() },
    payload: amount === undefined ? {} : { amount },
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

describe('what a campaign has raised (decision 0101)', () => {
  it('counts a gift without the card fee its donor covered: $50 covering the fee raises $50', async () => {
    await campaign('spring');
    const gift = await give('spring', { amount: 50, coverFee: true });
    expect(gift).toMatchObject({ campaign: 'spring', amountCents: 5181, feeCoveredCents: 181 });
    expect(await figures('spring')).toMatchObject({ raisedCents: 5000, donorCount: 1, goalCents: 100_000, status: 'live' });
  });

  it('takes a partial refund off the gift, and a full refund off entirely (and its donor with it)', async () => {
    await campaign('spring');
    const covered = await give('spring', { amount: 50, coverFee: true, donorEmail: 'ana@example.org' });
    const other = await give('spring', { amount: 25, donorEmail: 'ben@example.org' });
    await refund(covered.id, 20);
    expect(await figures('spring')).toMatchObject({ raisedCents: 3000 + 2500, donorCount: 2 });
    await refund(other.id);
    expect(await figures('spring')).toMatchObject({ raisedCents: 3000, donorCount: 1 });
  });

  it('never counts a declined attempt, nor a pending one', async () => {
    await campaign('spring');
    const declined = await give('spring', { amount: 40, donorEmail: 'dee@example.org' }, '4000000000000002');
    expect(declined).toMatchObject({ status: 'failed', campaign: 'spring' });
    await give('spring', { amount: 10 });
    await t.db.execute(sql`INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, gateway, is_test_payment, campaign)
      VALUES (9900, 'one-time', 'research-science', 'Pat Pending', 'pat@example.org', 'test', true, 'spring')`);
    expect(await figures('spring')).toMatchObject({ raisedCents: 1000, donorCount: 1 });
  });

  it('counts two gifts by one address, whatever its case, as one donor', async () => {
    await campaign('spring');
    await give('spring', { amount: 10, donorEmail: 'ana@example.org' });
    await give('spring', { amount: 15, donorEmail: 'Ana@Example.org' });
    expect(await figures('spring')).toMatchObject({ raisedCents: 2500, donorCount: 1 });
  });

  it("counts a plan's renewals charged while the campaign is live, and not those charged after its end", async () => {
    await campaign('spring');
    await give('spring', { amount: 30, frequency: 'monthly', donorEmail: 'mo@example.org' });
    const [plan] = await t.db.select().from(recurringPlans);
    const renewal = async () => {
      clock.advance(32 * 24 * HOUR_MS);
      await t.app.billing.run();
      const [row] = await t.db
        .select()
        .from(donations)
        .where(and(eq(donations.recurringPlanId, plan!.id), eq(donations.status, 'succeeded')))
        .orderBy(sql`${donations.recurringPeriod} DESC`)
        .limit(1);
      return row!;
    };
    expect(await renewal()).toMatchObject({ recurringPeriod: 1, campaign: 'spring' });
    expect(await figures('spring')).toMatchObject({ raisedCents: 6000, donorCount: 1 });

    await t.db.update(campaigns).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(campaigns.slug, 'spring'));
    expect(await renewal()).toMatchObject({ recurringPeriod: 2, campaign: null });
    expect(await figures('spring')).toMatchObject({ raisedCents: 6000, donorCount: 1, status: 'ended' });
  });
});

describe("a campaign's dates and status", () => {
  it('records no campaign on a gift made before its start, and says when it opens', async () => {
    const startsAt = new Date(Date.now() + 3 * 24 * HOUR_MS);
    await campaign('autumn', { startsAt });
    expect(await give('autumn')).toMatchObject({ status: 'succeeded', campaign: null });
    expect(await figures('autumn')).toMatchObject({ status: 'scheduled', startsAt: startsAt.toISOString(), raisedCents: 0, donorCount: 0 });
  });

  it('records no campaign after its end, and still answers what it raised', async () => {
    await campaign('winter');
    await give('winter', { amount: 20 });
    await t.db.update(campaigns).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(campaigns.slug, 'winter'));
    expect(await give('winter')).toMatchObject({ status: 'succeeded', campaign: null });
    expect(await figures('winter')).toMatchObject({ status: 'ended', raisedCents: 2000, donorCount: 1 });
  });

  it('is live from its start (included) to its end (excluded)', async () => {
    await campaign('now', { startsAt: new Date(Date.now() - HOUR_MS), endsAt: new Date(Date.now() + HOUR_MS) });
    expect(await give('now')).toMatchObject({ campaign: 'now' });
    expect(await figures('now')).toMatchObject({ status: 'live' });
  });

  it('answers a draft as an unknown campaign (404), and records no gift by its link', async () => {
    await campaign('secret', { published: false });
    expect((await figuresOf('secret')).statusCode).toBe(404);
    expect((await figuresOf('nobody-knows')).statusCode).toBe(404);
    expect(await give('secret')).toMatchObject({ status: 'succeeded', campaign: null });
  });
});

describe('GET /api/campaigns/<slug>', () => {
  it('answers the public figures, in Spanish when asked (English when a text has no Spanish), cacheable for a minute at most', async () => {
    await campaign('spring');
    await campaign('english-only', { texts: { en: { title: 'Only English', description: 'No translation yet.' } }, goalCents: null });
    const answer = await figuresOf('spring', '?locale=es');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toMatch(/^public, max-age=0$/);
    expect(answer.json()).toEqual({
      slug: 'spring',
      title: 'Campaña de primavera',
      description: 'Viveros de coral cuerno de alce.',
      goalCents: 100_000,
      raisedCents: 0,
      donorCount: 0,
      startsAt: null,
      endsAt: null,
      status: 'live',
    });
    expect((await figuresOf('english-only', '?locale=es')).json()).toMatchObject({ title: 'Only English', goalCents: null });
  });

  it('finds a slug without case, and a gift by a link in any case records it lower-case', async () => {
    await campaign('reef-week-2026');
    expect(await give('Reef-Week-2026', { amount: 5 })).toMatchObject({ campaign: 'reef-week-2026' });
    expect(await figures('REEF-WEEK-2026')).toMatchObject({ slug: 'reef-week-2026', raisedCents: 500 });
  });

  it('refuses a malformed slug or an unknown parameter with 400 naming it, and writes nothing', async () => {
    const before = await t.db.select().from(campaigns);
    for (const [url, field] of [
      ['/api/campaigns/spring_appeal', 'slug'],
      [`/api/campaigns/${'a'.repeat(65)}`, 'slug'],
      ['/api/campaigns/spring?locale=fr', 'locale'],
      ['/api/campaigns/spring?goal=1', 'goal'],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(400);
      expect(JSON.stringify(answer.json<{ fieldErrors?: object }>().fieldErrors), url).toContain(field);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(await t.db.select().from(campaigns)).toEqual(before);
  });
});
