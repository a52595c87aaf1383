import { describe, expect, it } from 'vitest';
import { describeChange, formatDays, formatMonth } from './dashboard-labels';

/** The dashboard's words for days and comparisons (issue #22). */
describe('dashboard labels', () => {
  it('writes a range of days, and a month', () => {
    expect(formatDays({ from: '2027-03-10', to: '2027-03-10' })).toBe('Mar 10, 2027');
    expect(formatDays({ from: '2027-02-09', to: '2027-03-10' })).toBe('Feb 9, 2027 to Mar 10, 2027');
    expect(formatMonth('2027-03')).toBe('March 2027');
  });

  it('compares with a year before in words, rounded to a whole percent', () => {
    expect(describeChange(11000, 8000)).toBe('up $30.00 (38%)');
    expect(describeChange(4500, 5000)).toBe('down $5.00 (10%)');
    expect(describeChange(500, 500)).toBe('same as a year before');
    expect(describeChange(1200, 0)).toBe('up $12.00 (none a year before)');
  });
});
