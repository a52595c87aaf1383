import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import { CAMPAIGN_HERO_SLOT_ID, PRERENDERED_PATH_ATTRIBUTE } from '../../shared/prerendered-pages';
import { StaffCampaignSchema } from '../../shared/staff/campaigns-api';
import { STAFF_API, staffApiPath } from '../../shared/staff/paths';
import { adminAuditLog, campaigns, campaignSupporters, donations } from '../db/schema';
import { manualClock } from '../platform/clock';
import { signInStaffForTest, type StaffTestSession } from '../staff/identity/testing/staff-session';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { loadCampaignTallies } from '../digest/campaign-tally';
import { insertCampaign } from './testing/campaign-rows';

/**
 * A campaign's supporters' list (issue #34, "Supporters' list"; decision 0103) through the real app and database: the
 * donor's choice, proven by the gift's receipt token, idempotent, never for an anonymous gift nor a campaign whose list
 * is off; the campaign page's first HTML lists the name (and message if chosen) and never an amount, address or place;
 * staff see every supporter and hide one (finance, audited; a viewer cannot); bad input 400 with nothing written. And the
 * digest counts a campaign as its public figures do.
 */

const SLOT = `<div class="css-slot" id="${CAMPAIGN_HERO_SLOT_ID}"></div>`;
const PRERENDERED =
  `<!doctype html><html lang="en"><head><title>t</title></head><body><div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="/donate">` +
  `<div class="hero">${SLOT}<h1>Protect the reef</h1></div></div><script type="module" src="/assets/a.js"></script></body></html>`;

const clock = manualClock();
let t: TestApp;
let viewer: StaffTestSession;
let finance: StaffTestSession;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { CAMPAIGN_FIGURES_MAX_AGE_MS: '0' }, files: { 'donate.html': PRERENDERED } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  await t.db.delete(campaignSupporters);
  await t.db.delete(campaigns);
  clock.set(new Date());
});

/** A gift by the campaign link `slug`; resolves with its receipt token and donation id. */
async function give(slug: string, overrides: Parameters<typeof validSubmission>[0] = {}) {
  const answer = await t.postDonation(validSubmission({ campaign: slug, ...overrides }));
  expect(answer.statusCode, answer.body).toBe(200);
  const data = answer.json<{ data: { transactionId: string; receiptUrl: string } }>().data;
  const [row] = await t.db.select().from(donations).where(eq(donations.gatewayTransactionId, data.transactionId));
  return { token: data.receiptUrl.slice(data.receiptUrl.lastIndexOf('/') + 1), id: row!.id };
}

/** GET or PUT of the choice of `token`, as the thank-you page sends it (CSRF credentials on the PUT). */
async function choice(token: string, payload?: object) {
  if (!payload) return t.app.inject({ method: 'GET', url: `/api/campaign-supporters/${token}` });
  const csrf = await t.csrf();
  return t.app.inject({ method: 'PUT', url: `/api/campaign-supporters/${token}`, headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload });
}

/** What the campaign page's hero holds. */
async function heroOf(slug: string) {
  const response = await t.app.inject({ method: 'GET', url: `/donate?campaign=${slug}` });
  expect(response.statusCode).toBe(200);
  return response.body;
}

describe("a donor's choice to be listed", () => {
  it('is offered unticked, stored once however often it is sent, and lists the name as typed (and the message when chosen) on the campaign page', async () => {
    await insertCampaign(t.db, 'spring', { showSupporters: true });
    const { token } = await give('spring', { amount: 75, donorName: 'Ana <Reef>', message: 'For the elkhorns!', donorAddress: { street: '1 Reef Rd', city: 'Belmopan', state: '', zipCode: '', country: 'Belize' } });
    expect((await choice(token)).json()).toEqual({ hasMessage: true, showName: false, showMessage: false });
    expect(await heroOf('spring')).not.toContain('Supporters');

    for (let i = 0; i < 2; i++) {
      const saved = await choice(token, { showName: true, showMessage: false });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ hasMessage: true, showName: true, showMessage: false });
    }
    expect(await t.db.select().from(campaignSupporters)).toHaveLength(1);
    let hero = await heroOf('spring');
    expect(hero).toContain('Supporters</h2>');
    expect(hero).toContain('<strong>Ana &lt;Reef&gt;</strong>');
    expect(hero).not.toContain('For the elkhorns!');

    expect((await choice(token, { showName: true, showMessage: true })).json()).toMatchObject({ showMessage: true });
    hero = await heroOf('spring');
    expect(hero).toContain('For the elkhorns!');
    const list = /<section aria-labelledby="campaign-supporters-heading"[\s\S]*?<\/section>/.exec(hero)?.[0] ?? '';
    expect(list).toContain('Ana &lt;Reef&gt;');
    for (const secret of ['ana@example.org', '$', 'Belmopan', '1 Reef Rd']) expect(list).not.toContain(secret);
    expect(hero).not.toContain('ana@example.org');

    expect((await choice(token, { showName: false, showMessage: false })).json()).toMatchObject({ showName: false });
    expect(await heroOf('spring')).not.toContain('Ana &lt;Reef&gt;');
  });

  it('is not offered (204 to read, 404 to write) for an anonymous gift, a campaign whose list is off or a gift without a campaign; a forged token gets 404', async () => {
    await insertCampaign(t.db, 'spring', { showSupporters: true });
    await insertCampaign(t.db, 'quiet', { showSupporters: false });
    const anonymous = await give('spring', { isAnonymous: true });
    const quiet = await give('quiet');
    const none = await give('not-a-campaign');
    for (const token of [anonymous.token, quiet.token, none.token]) {
      const read = await choice(token);
      expect(read.statusCode).toBe(204);
      expect(read.body).toBe('');
      expect((await choice(token, { showName: true, showMessage: false })).statusCode).toBe(404);
    }
    const forged = `${anonymous.token.slice(0, -2)}xx`;
    expect((await choice(forged)).statusCode).toBe(404);
    expect((await choice(forged, { showName: true, showMessage: false })).statusCode).toBe(404);
    expect(await t.db.select().from(campaignSupporters)).toEqual([]);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    await insertCampaign(t.db, 'spring', { showSupporters: true });
    const { token } = await give('spring', { message: 'Hi' });
    for (const [payload, field] of [
      [{ showName: false, showMessage: true }, 'showMessage'],
      [{ showName: 'yes', showMessage: false }, 'showName'],
      [{ showName: true }, 'showMessage'],
      [{ showName: true, showMessage: false, amount: 5 }, 'amount'],
    ] as const) {
      const answer = await choice(token, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(answer.json<{ fieldErrors?: object }>().fieldErrors)).toContain(field);
    }
    expect(await t.db.select().from(campaignSupporters)).toEqual([]);
  });
});

describe("staff and a campaign's supporters", () => {
  it('lists every supporter to staff; finance hides one (audited, once), the public list drops it, and a viewer cannot hide', async () => {
    await insertCampaign(t.db, 'spring', { showSupporters: true });
    const [row] = await t.db.select().from(campaigns);
    const { token, id: donationId } = await give('spring', { donorName: 'Rude Name', message: 'Rude words' });
    await choice(token, { showName: true, showMessage: true });
    const page = StaffCampaignSchema.parse((await t.app.inject({ method: 'GET', url: staffApiPath(STAFF_API.campaign, row!.id), headers: viewer.headers })).json());
    expect(page.supporters).toEqual([expect.objectContaining({ donationId, name: 'Rude Name', message: 'Rude words', hiddenAt: null })]);

    const hideUrl = staffApiPath(STAFF_API.campaignSupporterHide, row!.id).replace(':donationId', donationId);
    expect((await t.app.inject({ method: 'POST', url: hideUrl, headers: viewer.headers })).statusCode).toBe(403);
    const first = await t.app.inject({ method: 'POST', url: hideUrl, headers: finance.headers });
    expect(first.statusCode, first.body).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: hideUrl, headers: finance.headers });
    expect(again.json()).toEqual(first.json());
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.action, 'campaign.supporter.hide'), eq(adminAuditLog.subjectId, row!.id)));
    expect(audit).toEqual([expect.objectContaining({ actorStaffId: finance.staffMember.id })]);
    expect(await heroOf('spring')).not.toContain('Rude Name');
    // The donor's later choice does not unhide it.
    await choice(token, { showName: true, showMessage: true });
    expect(await heroOf('spring')).not.toContain('Rude Name');

    const missing = staffApiPath(STAFF_API.campaignSupporterHide, row!.id).replace(':donationId', '00000000-0000-4000-8000-000000000000');
    expect((await t.app.inject({ method: 'POST', url: missing, headers: finance.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.campaignSupporterHide, row!.id).replace(':donationId', 'nope'), headers: finance.headers })).statusCode).toBe(400);
  });
});

describe("the digest's campaign lines and the export", () => {
  it('count a campaign as its public figures do: net of refunds, without the covered fee, a lost dispute nothing', async () => {
    await insertCampaign(t.db, 'spring');
    const covered = await give('spring', { amount: 50, coverFee: true, donorEmail: 'a@example.org' });
    const disputed = await give('spring', { amount: 20, donorEmail: 'b@example.org' });
    await t.db.update(donations).set({ refundedCents: 2000 }).where(eq(donations.id, covered.id));
    await t.db.update(donations).set({ status: 'disputed', disputeStatus: 'lost' }).where(eq(donations.id, disputed.id));
    const day = { start: new Date(Date.now() - 3_600_000), end: new Date(Date.now() + 3_600_000) };
    expect(await loadCampaignTallies(t.db, day)).toEqual([{ campaign: 'spring', count: 1, amountCents: 3000 }]);
    const figures = await t.app.inject({ method: 'GET', url: '/api/campaigns/spring' });
    expect(figures.json()).toMatchObject({ raisedCents: 3000, donorCount: 1 });
    // The standard export's campaign_counted column sums to the same: 30.00 for the covered gift, 0.00 for the lost dispute.
    const exported = await t.app.inject({ method: 'GET', url: `${STAFF_API.donationsExport}?format=standard&campaign=spring`, headers: finance.headers });
    expect(exported.statusCode, exported.body).toBe(200);
    const [header = '', ...lines] = exported.body.trim().split('\r\n');
    const column = header.split(',').indexOf('campaign_counted');
    expect(lines.map((line) => line.split(',')[column]).sort()).toEqual(['0.00', '30.00']);
  });
});
