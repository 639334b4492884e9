import { describe, expect, it } from 'vitest';
import { localTimeText } from '../../src/util/localTimeText.js';

describe('localTimeText', () => {
  it("writes the zone's wall clock with its offset, across summer time and on both sides of UTC", () => {
    expect(localTimeText(Date.parse('2026-06-15T10:20:05Z'), 'Europe/Berlin')).toBe('2026-06-15 12:20:05 +02:00');
    expect(localTimeText(Date.parse('2026-12-01T23:50:00.900Z'), 'Europe/Berlin')).toBe('2026-12-02 00:50:00 +01:00');
    expect(localTimeText(Date.parse('2026-12-01T03:00:00Z'), 'America/New_York')).toBe('2026-11-30 22:00:00 -05:00');
    expect(localTimeText(Date.parse('2026-06-15T10:20:00Z'), 'Asia/Kolkata')).toBe('2026-06-15 15:50:00 +05:30');
    expect(localTimeText(Date.parse('2026-06-15T10:20:00Z'), 'UTC')).toBe('2026-06-15 10:20:00 +00:00');
  });
});
