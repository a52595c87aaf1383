import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toIsoDate } from '../recurring/calendar';
import { previousDate, startOfZonedDay, zonedDayBounds, zonedTime } from './time-zone';

/**
 * Calendar days in the staff's time zone (issue #14; decision 0062): the instants a day covers, daylight saving
 * included, checked against days whose length is known, and as a property over every zone Intl knows.
 */

const HOUR_MS = 60 * 60 * 1000;
const hoursOf = ({ start, end }: { start: Date; end: Date }) => (end.getTime() - start.getTime()) / HOUR_MS;

describe('zonedDayBounds', () => {
  it('gives a spring-forward day 23 hours and a fall-back day 25 (America/New_York, 2026)', () => {
    const spring = zonedDayBounds('2026-03-08', 'America/New_York');
    expect(spring).toEqual({ start: new Date('2026-03-08T05:00:00Z'), end: new Date('2026-03-09T04:00:00Z') });
    expect(hoursOf(spring)).toBe(23);
    const autumn = zonedDayBounds('2026-11-01', 'America/New_York');
    expect(autumn).toEqual({ start: new Date('2026-11-01T04:00:00Z'), end: new Date('2026-11-02T05:00:00Z') });
    expect(hoursOf(autumn)).toBe(25);
  });

  it('gives 24 hours to every day of a zone without daylight saving, at its offset (America/Belize, UTC-6; UTC)', () => {
    expect(zonedDayBounds('2026-03-08', 'America/Belize')).toEqual({ start: new Date('2026-03-08T06:00:00Z'), end: new Date('2026-03-09T06:00:00Z') });
    expect(zonedDayBounds('2028-02-29', 'UTC')).toEqual({ start: new Date('2028-02-29T00:00:00Z'), end: new Date('2028-03-01T00:00:00Z') });
  });

  it('starts a day whose midnight the clocks skip when they jump (America/Santiago, 6 September 2026: 00:00 -> 01:00)', () => {
    const start = startOfZonedDay('2026-09-06', 'America/Santiago');
    expect(start).toEqual(new Date('2026-09-06T04:00:00Z'));
    expect(zonedTime(start, 'America/Santiago')).toEqual({ date: '2026-09-06', hour: 1 });
    expect(zonedTime(new Date(start.getTime() - 1), 'America/Santiago')).toEqual({ date: '2026-09-05', hour: 23 });
  });

  it('tiles time in every zone: a day starts at its first instant and lasts 23 to 25 hours, next to the day before', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    const day = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2037, 11, 31) }).map((ms) => toIsoDate(new Date(ms)));
    fc.assert(
      fc.property(fc.constantFrom(...zones), day, (zone, date) => {
        const bounds = zonedDayBounds(date, zone);
        expect(zonedTime(bounds.start, zone).date).toBe(date);
        expect(zonedTime(new Date(bounds.start.getTime() - 1), zone).date).toBe(previousDate(date));
        expect(zonedTime(new Date(bounds.end.getTime() - 1), zone).date).toBe(date);
        expect(hoursOf(bounds)).toBeGreaterThanOrEqual(23);
        expect(hoursOf(bounds)).toBeLessThanOrEqual(25);
        expect(zonedDayBounds(previousDate(date), zone).end).toEqual(bounds.start);
      }),
      { numRuns: 300 },
    );
  });
});

describe('zonedTime', () => {
  it('reads the date and the 24-hour hour of an instant in a zone, midnight as hour 0', () => {
    expect(zonedTime(new Date('2026-03-09T04:00:00Z'), 'America/New_York')).toEqual({ date: '2026-03-09', hour: 0 });
    expect(zonedTime(new Date('2026-03-09T03:59:59.999Z'), 'America/New_York')).toEqual({ date: '2026-03-08', hour: 23 });
    expect(zonedTime(new Date('2026-01-01T05:30:00Z'), 'Asia/Kolkata')).toEqual({ date: '2026-01-01', hour: 11 });
  });

  it('counts the day before across months and leap days', () => {
    expect(previousDate('2026-03-01')).toBe('2026-02-28');
    expect(previousDate('2028-03-01')).toBe('2028-02-29');
    expect(previousDate('2027-01-01')).toBe('2026-12-31');
  });
});
