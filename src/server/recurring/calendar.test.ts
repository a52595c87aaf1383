import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeDate, daysInMonth, firstPeriodOnOrAfter, startOfDay, toIsoDate } from './calendar';

/** The renewal calendar (issue #13, "Calendar"): month ends, leap days, UTC. */

const dates = (anchor: string, frequency: 'monthly' | 'yearly', periods: number) =>
  Array.from({ length: periods }, (_, period) => chargeDate(anchor, frequency, period));

describe('monthly renewals', () => {
  it('fall on the first charge day of the month, or the month last day when it has none: Jan 31 -> Feb 28/29 -> Mar 31', () => {
    expect(dates('2027-01-31', 'monthly', 13)).toEqual([
      '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30',
      '2027-07-31', '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31',
    ]);
    expect(dates('2028-01-31', 'monthly', 3)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
    expect(dates('2026-11-30', 'monthly', 4)).toEqual(['2026-11-30', '2026-12-30', '2027-01-30', '2027-02-28']);
    expect(dates('2026-11-15', 'monthly', 3)).toEqual(['2026-11-15', '2026-12-15', '2027-01-15']);
  });

  it('never drift: every date is the anchor day, or the last day of a shorter month (any anchor, any period)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2090-12-31'), noInvalidDate: true }), fc.nat(600), (instant, period) => {
        const anchor = toIsoDate(instant);
        const date = chargeDate(anchor, 'monthly', period);
        const [year, month, day] = date.split('-').map(Number) as [number, number, number];
        const anchorDay = instant.getUTCDate();
        expect(day).toBe(Math.min(anchorDay, daysInMonth(year, month)));
        expect((year - instant.getUTCFullYear()) * 12 + month - 1 - instant.getUTCMonth()).toBe(period);
      }),
    );
  });
});

describe('yearly renewals', () => {
  it('fall on the same date; a leap day Feb 29 becomes Feb 28 in common years and Feb 29 again in leap years', () => {
    expect(dates('2028-02-29', 'yearly', 5)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']);
    expect(dates('2026-11-23', 'yearly', 3)).toEqual(['2026-11-23', '2027-11-23', '2028-11-23']);
  });
});

describe('dates in UTC', () => {
  it('take the UTC date of an instant and start it at 00:00 UTC', () => {
    expect(toIsoDate(new Date('2027-01-31T23:30:00-05:00'))).toBe('2027-02-01');
    expect(startOfDay('2027-02-28').toISOString()).toBe('2027-02-28T00:00:00.000Z');
  });

  it('refuse a malformed date or a negative period', () => {
    expect(() => chargeDate('2027-02-30', 'monthly', 1)).toThrow(RangeError);
    expect(() => chargeDate('2027-01-31', 'monthly', -1)).toThrow(RangeError);
  });
});

describe('firstPeriodOnOrAfter (where a resumed plan picks up)', () => {
  it('is the first renewal on or after the date, at least period 1', () => {
    expect(firstPeriodOnOrAfter('2027-01-31', 'monthly', '2027-01-31')).toBe(1);
    expect(firstPeriodOnOrAfter('2027-01-31', 'monthly', '2027-03-01')).toBe(2);
    expect(firstPeriodOnOrAfter('2027-01-31', 'monthly', '2027-02-28')).toBe(1);
    expect(firstPeriodOnOrAfter('2027-01-31', 'monthly', '2027-04-30')).toBe(3);
    expect(firstPeriodOnOrAfter('2028-02-29', 'yearly', '2031-03-01')).toBe(4);
  });

  it('never returns a period before the date nor skips one on or after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 3_000 }), fc.constantFrom('monthly', 'yearly' as const), (a, d, frequency) => {
        const anchor = toIsoDate(new Date(Date.UTC(2000, 0, 1) + a * 86_400_000));
        const date = toIsoDate(new Date(Date.UTC(2000, 0, 1) + (a + d) * 86_400_000));
        const period = firstPeriodOnOrAfter(anchor, frequency, date);
        expect(chargeDate(anchor, frequency, period) >= date).toBe(true);
        if (period > 1) expect(chargeDate(anchor, frequency, period - 1) < date).toBe(true);
      }),
    );
  });
});
