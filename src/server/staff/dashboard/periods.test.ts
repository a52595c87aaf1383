import { describe, expect, it } from 'vitest';
import { allPeriods, dailyDates, monthsToDate, rangeAYearBefore, sameDateAYearBefore, todayIn, zonedRange } from './periods';

/** The dashboard's days (issue #22; decision 0074): periods, a year before (leap days), months, zoned instants. */
describe('the dashboard days', () => {
  it('moves a date a year back, a leap day to 28 February', () => {
    expect(sameDateAYearBefore('2027-03-10')).toBe('2026-03-10');
    expect(sameDateAYearBefore('2028-02-29')).toBe('2027-02-28');
    expect(sameDateAYearBefore('2029-03-01')).toBe('2028-03-01');
    expect(rangeAYearBefore({ from: '2028-02-23', to: '2028-02-29' })).toEqual({ from: '2027-02-23', to: '2027-02-28' });
  });

  it('ends every period today, and starts the year on 1 January', () => {
    expect(allPeriods('2028-03-01')).toEqual([
      { period: 'today', days: { from: '2028-03-01', to: '2028-03-01' } },
      { period: 'last7', days: { from: '2028-02-24', to: '2028-03-01' } },
      { period: 'last30', days: { from: '2028-02-01', to: '2028-03-01' } },
      { period: 'year', days: { from: '2028-01-01', to: '2028-03-01' } },
    ]);
    const days = dailyDates('2028-03-01');
    expect([days.length, days[0], days.at(-1)]).toEqual([30, '2028-02-01', '2028-03-01']);
  });

  it('cuts the months at today, and a year before at the same date, so they add up to the year and its year before', () => {
    expect(monthsToDate('2029-02-15')).toEqual([
      { month: '2029-01', days: { from: '2029-01-01', to: '2029-01-31' }, yearBefore: { from: '2028-01-01', to: '2028-01-31' } },
      { month: '2029-02', days: { from: '2029-02-01', to: '2029-02-15' }, yearBefore: { from: '2028-02-01', to: '2028-02-15' } },
    ]);
    // A year after a leap year, February a year before holds its 29th.
    expect(monthsToDate('2029-03-02')[1]?.yearBefore).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it("takes today and the instants of the days from the staff's time zone, daylight saving included", () => {
    // 03:00 UTC on 1 January is still 31 December in Belize (UTC-6).
    expect(todayIn(new Date('2027-01-01T03:00:00Z'), 'America/Belize')).toBe('2026-12-31');
    // New York's spring-forward day lasts 23 hours.
    const range = zonedRange({ from: '2027-03-14', to: '2027-03-14' }, 'America/New_York');
    expect([range.start.toISOString(), range.end.toISOString()]).toEqual(['2027-03-14T05:00:00.000Z', '2027-03-15T04:00:00.000Z']);
  });
});
