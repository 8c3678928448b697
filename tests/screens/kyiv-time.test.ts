import { describe, expect, it } from 'vitest';
import { formatMoment, isPastWallTime, kyivWallTime } from '../../src/lib/kyiv-time';

describe('Kyiv wall time, without a date library', () => {
  it('reads a moment as Kyiv reads it, in winter (UTC+2) and in summer (UTC+3), on a 24-hour clock', () => {
    expect(kyivWallTime(Date.UTC(2026, 10, 25, 22, 5, 59))).toBe('2026-11-26T00:05');
    expect(kyivWallTime(Date.UTC(2026, 6, 1, 9, 0))).toBe('2026-07-01T12:00');
  });

  it('counts the minute being typed as now, the one before as past', () => {
    const now = Date.UTC(2026, 10, 25, 10, 0, 30); // 12:00:30 in Kyiv
    expect(isPastWallTime('2026-11-25T11:59', now)).toBe(true);
    expect(isPastWallTime('2026-11-25T12:00', now)).toBe(false);
    expect(isPastWallTime('2026-11-25T12:01', now)).toBe(false);
    expect(isPastWallTime('2025-12-31T23:59', now)).toBe(true);
    expect(isPastWallTime('not a date', now)).toBe(false);
  });

  it("gives a moment's day only when it is not today's in Kyiv, whatever day it is in UTC", () => {
    const now = Date.UTC(2026, 10, 26, 21, 30); // 23:30 on 26 November in Kyiv
    expect(formatMoment('2026-11-26T21:45:00Z', now)).toEqual({ time: '23:45', day: '' });
    // 00:54 in Kyiv is already the 27th, while UTC still says the 26th.
    expect(formatMoment('2026-11-26T22:54:00Z', now)).toEqual({ time: '00:54', day: '27.11.2026' });
    expect(formatMoment('2026-11-25T22:00:00Z', now)).toEqual({ time: '00:00', day: '' });
    expect(formatMoment('2026-11-25T21:59:00Z', now)).toEqual({ time: '23:59', day: '25.11.2026' });
  });
});
