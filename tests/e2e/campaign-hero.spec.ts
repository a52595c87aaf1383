import { randomUUID } from 'node:crypto';
import { STAFF_API } from '../../src/shared/staff/paths';
import { expectNoAxeViolations } from './a11y-helpers';
import { expect, test } from './fixtures';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, openStaffBrowser, operatorInvites, uniqueStaffAddress } from './staff-helpers';

/**
 * A campaign link's hero (issue #34, "Donors see it"; decision 0102), in Chromium against the real server and database:
 * a finance member creates a live campaign with a $1,000 goal through the staff API; its link shows the campaign's
 * title, description and progress bar from the first HTML, with no layout shift (CLS 0), axe 0 and 320 px reflow; the
 * Spanish link shows the Spanish title.
 */

/** `YYYY-MM-DDTHH:mm` three days from now in UTC (the e2e server's TZ). */
const inThreeDays = () => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 16);

test('a live campaign link shows its title, description and progress bar in the first HTML, without layout shift', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const slug = `hero-${randomUUID().slice(0, 8)}`;
  const financeEmail = uniqueStaffAddress('hero-finance');
  const finance = await openStaffBrowser(browser);
  await operatorInvites(finance.page, financeEmail, 'finance');
  await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);
  const created = await finance.page.request.post(STAFF_API.campaigns, {
    headers: await csrfHeaders(finance.context),
    data: {
      slug,
      texts: { en: { title: 'Coral nurseries', description: 'Grow elkhorn coral for the reef.' }, es: { title: 'Viveros de coral', description: 'Cultivar coral cuerno de alce.' } },
      goal: '1000',
      startsAt: null,
      endsAt: inThreeDays(),
      presetAmount: null,
      presetFrequency: null,
      presetCause: null,
      showSupporters: false,
      published: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await finance.context.close();

  // The served HTML already holds the campaign's texts and figures.
  const html = await (await page.request.get(`/donate?campaign=${slug}`, { headers: { accept: 'text/html' } })).text();
  expect(html).toContain('Coral nurseries</h1>');
  expect(html).toContain('role="progressbar"');

  // Every layout shift from the first frame is summed (Layout Instability API), excluding those after input.
  await page.addInitScript(() => {
    const w = window as unknown as { cls: number };
    w.cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/donate?campaign=${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coral nurseries');
  await expect(page.getByText('Grow elkhorn coral for the reef.')).toBeVisible();
  const bar = page.getByRole('progressbar', { name: 'Campaign progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  await expect(bar).toHaveAttribute('aria-valuetext', '$0 raised of a $1,000 goal, 0 percent');
  await expect(page.getByText('$0 raised of $1,000')).toBeVisible();
  await expect(page.getByText('0 donors')).toBeVisible();
  await expect(page.getByText('3 days left')).toBeVisible();
  // The selection card is the spec's, and the default hero's texts are gone.
  await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeVisible();
  await expect(page.getByText('Help Protect the Belize Barrier Reef')).toBeHidden();
  // Once the app is live (hydrated), nothing moved.
  await expect(page.locator('#root')).not.toHaveAttribute('data-early-choices');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBe(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coral nurseries');
  await expectNoAxeViolations(page, 'a campaign link');
  // Back from the form inside the app, the campaign's heading takes the focus (the landing heading is hidden behind it).
  await page.getByRole('button', { name: 'Marine Protected Areas Management' }).click();
  await page.getByRole('button', { name: 'Continue to Donation' }).click();
  await page.getByRole('link', { name: 'Change donation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Coral nurseries' })).toBeFocused();
  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(page, 'a campaign link at 320 px');

  await page.goto(`/es/donate?campaign=${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Viveros de coral');
  await expect(page.getByText('Quedan 3 días')).toBeVisible();
});
