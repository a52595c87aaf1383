import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAMPAIGN_HERO_SLOT_ID, PRERENDERED_PATH_ATTRIBUTE } from '../../shared/prerendered-pages';
import { campaigns } from '../db/schema';
import { manualClock } from '../platform/clock';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { insertCampaign } from '../campaigns/testing/campaign-rows';

/**
 * A campaign link to the pre-rendered landing page (`/donate?campaign=<slug>`, `/es/donate?campaign=<slug>`) gets the
 * campaign's hero in its first HTML (issue #34, "Donors see it"; decision 0102), through the real app and database:
 * live with and without a goal, before its start, after its end, draft and unknown (the page as it is), and escaping.
 */

const SLOT = `<div class="css-slot" id="${CAMPAIGN_HERO_SLOT_ID}"></div>`;
const prerendered = (path: string, lang: string, heading: string) =>
  `<!doctype html><html lang="${lang}"><head><title>t</title></head><body><div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="${path}">` +
  `<div class="hero">${SLOT}<h1>${heading}</h1></div></div><script type="module" src="/assets/a.js"></script></body></html>`;

const DAY_MS = 86_400_000;
// NOTE: noon today in Belize (TZ America/Belize, UTC-6 all year), so "today" and "days left" do not depend on the hour the
// test runs, and a gift recorded now falls inside a campaign dated around it.
const NOW = new Date(`${new Date().toISOString().slice(0, 10)}T18:00:00Z`);
const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { TZ: 'America/Belize', CAMPAIGN_FIGURES_MAX_AGE_MS: '0' },
    files: { 'donate.html': prerendered('/donate', 'en', 'Protect the reef'), 'es/donate.html': prerendered('/es/donate', 'es', 'Protege el arrecife') },
  });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  await t.db.delete(campaigns);
  clock.set(NOW);
});

/** Writes a published campaign `slug` with English and Spanish texts and the columns of `values`. */
const campaign = (slug: string, values: Parameters<typeof insertCampaign>[2] = {}) => insertCampaign(t.db, slug, values);

/** The page `url` answers (asserting a 200), and what its campaign hero slot holds. */
async function page(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  const slot = new RegExp(`<div class="css-slot" id="${CAMPAIGN_HERO_SLOT_ID}">([\\s\\S]*?)</div><h1>`).exec(response.body)?.[1];
  return { body: response.body, hero: slot ?? '' };
}

describe('a campaign link to the landing page', () => {
  it('of a live campaign with a goal shows its title, description, raised, goal, percentage, donors and days left', async () => {
    await campaign('spring', { startsAt: new Date(NOW.getTime() - 2 * DAY_MS), endsAt: new Date(NOW.getTime() + 12 * DAY_MS) });
    const gift = await t.postDonation(validSubmission({ campaign: 'spring', amount: 50 }));
    expect(gift.statusCode, gift.body).toBe(200);
    const { hero, body } = await page('/donate?campaign=Spring');
    expect(hero).toContain('Spring appeal</h1>');
    expect(hero).toContain('Nurseries for elkhorn coral.');
    expect(hero).toContain('$50 raised of $1,000');
    expect(hero).toContain('5% of the goal');
    expect(hero).toContain('1 donor<');
    expect(hero).toContain('12 days left');
    expect(hero).toMatch(/role="progressbar"[^>]* aria-valuemin="0" aria-valuemax="100" aria-valuenow="5" aria-valuetext="\$50 raised of a \$1,000 goal, 5 percent"/);
    expect(body).toContain('<h1>Protect the reef</h1>');
  });

  it('on its last day says the hour it ends in TZ, never "0 days left"', async () => {
    await campaign('spring', { endsAt: new Date(NOW.getTime() + 6 * 3_600_000) });
    const { hero } = await page('/donate?campaign=spring');
    expect(hero).toContain('Ends today at 6 PM');
    expect(hero).not.toContain('days left');
  });

  it('of a live campaign without a goal shows raised and donors, and no bar', async () => {
    await campaign('open', { goalCents: null });
    const { hero } = await page('/donate?campaign=open');
    expect(hero).toContain('$0 raised');
    expect(hero).toContain('0 donors');
    expect(hero).not.toContain('progressbar');
    expect(hero).not.toContain('left');
  });

  it('in Spanish shows the Spanish texts, and falls back to English where there are none', async () => {
    await campaign('spring', { endsAt: new Date(NOW.getTime() + 3 * DAY_MS) });
    await campaign('only-en', { texts: { en: { title: 'Only English', description: 'Words.' } } });
    const spanish = await page('/es/donate?campaign=spring');
    expect(spanish.body).toContain('<html lang="es">');
    expect(spanish.hero).toContain('Campaña de primavera</h1>');
    expect(spanish.hero).toContain('Viveros de coral cuerno de alce.');
    expect(spanish.hero).toContain('Quedan 3 días');
    expect(spanish.hero).toContain('0 donantes');
    expect((await page('/es/donate?campaign=only-en')).hero).toContain('Only English</h1>');
  });

  it('before its start says when it opens, and that gifts go to the general work', async () => {
    await campaign('later', { startsAt: new Date(NOW.getTime() + 2 * DAY_MS) });
    const { hero } = await page('/donate?campaign=later');
    expect(hero).toContain('Spring appeal</h1>');
    expect(hero).toMatch(/This campaign opens on [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s?PM\./);
    expect(hero).toContain("support the reserve&#39;s general work");
    expect(hero).not.toContain('progressbar');
  });

  it('after its end says it has ended and what it raised', async () => {
    await campaign('past', { endsAt: new Date(NOW.getTime() - DAY_MS) });
    const { hero } = await page('/donate?campaign=past');
    expect(hero).toContain('This campaign has ended. It raised $0.');
    expect(hero).not.toContain('progressbar');
  });

  it.each(['/donate?campaign=draft', '/donate?campaign=nobody', '/donate?campaign=%3Cb%3E', '/donate'])(
    'of a draft, unknown or malformed campaign (%s) leaves the page as it is',
    async (url) => {
      await campaign('draft', { published: false });
      const { body } = await page(url);
      expect(body).toContain(SLOT);
    },
  );

  it('escapes the staff\'s texts', async () => {
    await campaign('hostile', {
      texts: { en: { title: '<script>alert(1)</script> & "reefs"', description: "<img src=x onerror=alert(1)> it's" } },
    });
    const { hero } = await page('/donate?campaign=hostile');
    expect(hero).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;reefs&quot;</h1>');
    expect(hero).toContain('&lt;img src=x onerror=alert(1)&gt; it&#39;s');
    expect(hero).not.toMatch(/<script|<img/);
  });
});
