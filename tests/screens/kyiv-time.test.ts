import { describe, expect, it } from 'vitest';
import { isPastWallTime, kyivWallTime } from '../../src/lib/kyiv-time';

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
});
