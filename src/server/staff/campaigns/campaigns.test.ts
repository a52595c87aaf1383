import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_DATES_MESSAGE,
  CAMPAIGN_SLUG_FIXED_MESSAGE,
  CAMPAIGN_SLUG_TAKEN_MESSAGE,
  StaffCampaignListSchema,
  StaffCampaignSchema,
  type StaffCampaignInputFields,
} from '../../../shared/staff/campaigns-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { adminAuditLog, campaigns } from '../../db/schema';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { fromLocalDateTime, toLocalDateTime } from './local-time';

/**
 * The staff campaigns API (issue #34, "Staff run campaigns"; decision 0101) through the real app and database: viewers
 * read, finance and admin create and edit, every change audited in its transaction; dates typed in TZ; slugs unique
 * without case and fixed once a gift recorded them; bad input answered 400 naming the field, with nothing written.
 */

let t: TestApp;
let viewer: StaffTestSession;
let finance: StaffTestSession;
beforeAll(async () => {
  t = await createTestApp({ env: { TZ: 'America/Belize', STAFF_EMAILS: 'digest@example.org', PUBLIC_URL: 'https://give.example.org' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  await t.db.delete(campaigns);
});

/** A valid body: a $1,000 goal, English and Spanish texts, ending in three days, published. */
function body(overrides: Partial<StaffCampaignInputFields> = {}): StaffCampaignInputFields {
  return {
    slug: 'Spring-Appeal',
    texts: { en: { title: 'Spring appeal', description: 'Coral nurseries.' }, es: { title: 'Campaña de primavera', description: 'Viveros de coral.' } },
    goal: '1000',
    startsAt: null,
    endsAt: toLocalDateTime(new Date(Date.now() + 3 * 86_400_000), 'America/Belize'),
    presetAmount: '50',
    presetFrequency: 'one-time',
    presetCause: 'research-science',
    showSupporters: true,
    published: true,
    ...overrides,
  };
}

const send = (method: 'GET' | 'POST' | 'PUT', url: string, session: StaffTestSession, payload?: object) =>
  t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
const create = (payload: object, session = finance) => send('POST', STAFF_API.campaigns, session, payload);
const edit = (id: string, payload: object, session = finance) => send('PUT', staffApiPath(STAFF_API.campaign, id), session, payload);
/** A campaign's page as `session` reads it, asserting a 200. */
async function pageOf(id: string, session = viewer) {
  const answer = await send('GET', staffApiPath(STAFF_API.campaign, id), session);
  expect(answer.statusCode, answer.body).toBe(200);
  return StaffCampaignSchema.parse(answer.json());
}
const auditOf = (id: string) => t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectType, 'campaign'), eq(adminAuditLog.subjectId, id)));

describe('staff create and edit campaigns', () => {
  it('creates a campaign (finance), audited, its end typed in TZ, and a viewer reads it in the list and on its page', async () => {
    const created = await create(body());
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, id));
    expect(row).toMatchObject({ slug: 'spring-appeal', goalCents: 100_000, presetAmountCents: 5000, published: true, showSupporters: true });
    expect(row?.endsAt?.toISOString()).toBe(fromLocalDateTime(body().endsAt!, 'America/Belize').toISOString());
    expect(await auditOf(id)).toEqual([expect.objectContaining({ action: 'campaign.create', actorStaffId: finance.staffMember.id })]);

    const listed = await send('GET', `${STAFF_API.campaigns}?status=live`, viewer);
    expect(listed.statusCode, listed.body).toBe(200);
    const list = StaffCampaignListSchema.parse(listed.json());
    expect(list.rows).toEqual([
      expect.objectContaining({ id, slug: 'spring-appeal', title: 'Spring appeal', status: 'live', goalCents: 100_000, raisedCents: 0, percent: 0, endsAt: body().endsAt }),
    ]);
    expect(StaffCampaignListSchema.parse((await send('GET', `${STAFF_API.campaigns}?status=ended`, viewer)).json()).rows).toEqual([]);
    const page = await pageOf(id);
    expect(page).toMatchObject({ status: 'live', link: 'https://give.example.org/donate?campaign=spring-appeal', slugFixed: false, timeZone: 'America/Belize' });
    expect(page.fields).toMatchObject({ goal: '1000', presetAmount: '50', endsAt: body().endsAt });
  });

  it('shows what a campaign raised by day and in total, with its percentage of the goal', async () => {
    const { id } = (await create(body())).json<{ id: string }>();
    await t.postDonation(validSubmission({ amount: 50, coverFee: true, campaign: 'spring-appeal' }));
    const page = await pageOf(id);
    expect(page).toMatchObject({ raisedCents: 5000, donorCount: 1, percent: 5, slugFixed: true });
    expect(page.days).toEqual([{ date: toLocalDateTime(new Date(), 'America/Belize').slice(0, 10), raisedCents: 5000, totalCents: 5000 }]);
  });

  it('edits a campaign, audited with the fields changed; a viewer can neither create nor edit (403, nothing written)', async () => {
    const { id } = (await create(body())).json<{ id: string }>();
    const edited = await edit(id, body({ goal: '2000.50', published: false }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await t.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]).toMatchObject({ goalCents: 200_050, published: false });
    expect((await auditOf(id)).map((entry) => [entry.action, entry.details])).toContainEqual(['campaign.update', { slug: 'spring-appeal', changed: ['goalCents', 'published'] }]);

    expect((await create(body({ slug: 'other' }), viewer)).statusCode).toBe(403);
    expect((await edit(id, body({ goal: '1' }), viewer)).statusCode).toBe(403);
    expect(await t.db.select({ slug: campaigns.slug, goalCents: campaigns.goalCents }).from(campaigns)).toEqual([{ slug: 'spring-appeal', goalCents: 200_050 }]);
  });

  it('keeps slugs unique without case, and fixes a slug once a gift recorded it', async () => {
    const { id } = (await create(body())).json<{ id: string }>();
    const taken = await create(body({ slug: 'SPRING-appeal' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ fieldErrors: { slug: CAMPAIGN_SLUG_TAKEN_MESSAGE } });

    expect((await edit(id, body({ slug: 'spring-2027' }))).statusCode).toBe(200);
    await t.postDonation(validSubmission({ campaign: 'spring-2027' }));
    const fixed = await edit(id, body({ slug: 'spring-2028' }));
    expect(fixed.statusCode).toBe(409);
    expect(fixed.json()).toMatchObject({ fieldErrors: { slug: CAMPAIGN_SLUG_FIXED_MESSAGE } });
    expect((await t.db.select({ slug: campaigns.slug }).from(campaigns))[0]?.slug).toBe('spring-2027');
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const auditedBefore = (await t.db.select().from(adminAuditLog)).length;
    const cases: Array<[Partial<StaffCampaignInputFields> | Record<string, unknown>, string]> = [
      [{ slug: 'spring appeal' }, 'slug'],
      [{ slug: 'a'.repeat(65) }, 'slug'],
      [{ texts: { en: { title: '', description: '' } } }, 'texts.en.title'],
      [{ texts: { es: { title: 'Solo español', description: '' } } }, 'texts.en'],
      [{ texts: { en: { title: 'x'.repeat(121), description: '' } } }, 'texts.en.title'],
      [{ goal: '-5' }, 'goal'],
      [{ goal: '0' }, 'goal'],
      [{ goal: '12.345' }, 'goal'],
      [{ startsAt: '2027-02-30T10:00', endsAt: null }, 'startsAt'],
      [{ endsAt: '2027-3-1T10:00' }, 'endsAt'],
      [{ startsAt: '2027-03-10T10:00', endsAt: '2027-03-10T09:00' }, 'endsAt'],
      [{ presetFrequency: 'weekly' as never }, 'presetFrequency'],
      [{ presetCause: 'whales' as never }, 'presetCause'],
      [{ showSupporters: 'yes' as never }, 'showSupporters'],
      [{ color: 'blue' }, 'color'],
    ];
    for (const [overrides, field] of cases) {
      const answer = await create({ ...body(), ...overrides });
      expect(answer.statusCode, `${JSON.stringify(overrides)}: ${answer.body}`).toBe(400);
      expect(Object.keys(answer.json<{ fieldErrors?: object }>().fieldErrors ?? {}).join(' '), JSON.stringify(overrides)).toContain(field);
    }
    const backwards = await create({ ...body(), startsAt: '2027-03-10T10:00', endsAt: '2027-03-10T09:00' });
    expect(backwards.json()).toMatchObject({ fieldErrors: { endsAt: CAMPAIGN_DATES_MESSAGE } });
    expect(await t.db.select().from(campaigns)).toEqual([]);
    expect(await t.db.select().from(adminAuditLog)).toHaveLength(auditedBefore);
  });
});
