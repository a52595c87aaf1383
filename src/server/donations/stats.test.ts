import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, DonationStatsSchema } from '../../shared/api';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/** GET /api/donations/stats (issue #2): totals over succeeded donations, in dollars. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const getStats = async () => {
  const response = await t.app.inject({ method: 'GET', url: API_PATHS.donationStats });
  expect(response.statusCode).toBe(200);
  return DonationStatsSchema.parse(response.json());
};

describe('GET /api/donations/stats', () => {
  it('answers zeros and empty lists before any donation, without a CSRF token', async () => {
    expect(await getStats()).toEqual({
      currency: 'USD',
      totalRaised: 0,
      donationCount: 0,
      donorCount: 0,
      byCause: [],
      byFrequency: [],
    });
  });

  it('counts succeeded donations only, and donors by e-mail whatever its case', async () => {
    const donations = [
      validSubmission({ amount: 25, cause: 'research-science', frequency: 'one-time', donorEmail: 'ana@example.org' }),
      validSubmission(
        { amount: 100.5, cause: 'research-science', frequency: 'monthly', donorEmail: 'ANA@Example.ORG' },
        { number: '5555555555554444' },
      ),
      validSubmission(
        { amount: 10.1, cause: 'education-outreach', frequency: 'yearly', donorEmail: 'bob@example.org' },
        { number: '378282246310005', cvv: '1234' },
      ),
      // Declined: not counted anywhere.
      validSubmission(
        { amount: 500, cause: 'marine-protected-areas', frequency: 'one-time', donorEmail: 'carol@example.org' },
        { number: '4000000000000002' },
      ),
    ];
    const statuses = [];
    for (const donation of donations) statuses.push((await t.postDonation(donation)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 402]);

    expect(await getStats()).toEqual({
      currency: 'USD',
      totalRaised: 135.6,
      donationCount: 3,
      donorCount: 2,
      byCause: [
        { cause: 'research-science', totalRaised: 125.5, donationCount: 2 },
        { cause: 'education-outreach', totalRaised: 10.1, donationCount: 1 },
      ],
      byFrequency: [
        { frequency: 'one-time', totalRaised: 25, donationCount: 1 },
        { frequency: 'monthly', totalRaised: 100.5, donationCount: 1 },
        { frequency: 'yearly', totalRaised: 10.1, donationCount: 1 },
      ],
    });
  });
});
