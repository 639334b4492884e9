import { describe, expect, it } from 'vitest';
import type { TimedReading } from '../../src/history/stationHistory.js';
import { RecentRain } from '../../src/station/recentRain.js';

const MINUTE = 60_000;

function counter(totalMm: number, extra: Partial<TimedReading> = {}): TimedReading {
  return { timeMs: 0, values: {}, rainCounters: [{ key: 'c', totalMm }], fingerprint: String(totalMm), dropped: [], ...extra };
}

describe('RecentRain (rain of the last hour on the monotonic clock)', () => {
  it('supplies rain the history does not show and holds mowable off, until the hour is over', () => {
    const mono = { ms: 0, now() { return this.ms; } };
    const unit = new RecentRain(mono);
    expect(unit.extendInput('garden', { temperature: 14 })).toEqual({ temperature: 14 });
    unit.onReading('garden', counter(100));
    mono.ms += 5 * MINUTE;
    unit.onReading('garden', counter(104));
    mono.ms += 2 * MINUTE;
    unit.onReading('garden', { timeMs: 0, values: {}, rainCounters: [], rainDeltaMm: 0.5, fingerprint: 'd', dropped: [] });
    // The history withholds its windows (the clock stepped): the unit supplies them and holds.
    expect(unit.extendInput('garden', { temperature: 14 })).toEqual({ temperature: 14, rain_1h: 4.5, minutes_since_rain: 0 });
    expect(unit.mowableHold('garden')?.code).toBe('recent_rain');
    expect(unit.mowableHold('garden')?.reason.en).toMatch(/4\.5 mm of rain in the last hour/);
    // The history shows a smaller amount (rain booked in a future-stamped minute): still held.
    expect(unit.extendInput('garden', { rain_1h: 0, minutes_since_rain: 300 })).toEqual({ rain_1h: 4.5, minutes_since_rain: 300 });
    // The history shows it: nothing changes.
    const shown = { rain_1h: 4.5, minutes_since_rain: 2 };
    expect(unit.extendInput('garden', shown)).toBe(shown);
    expect(unit.mowableHold('garden')).toBeUndefined();
    mono.ms += 61 * MINUTE;
    expect(unit.extendInput('garden', { temperature: 14 })).toEqual({ temperature: 14 });
    expect(unit.mowableHold('garden')).toBeUndefined();
  });

  it('counts a counter step only after a short gap, and no decrease', () => {
    const mono = { ms: 0, now() { return this.ms; } };
    const unit = new RecentRain(mono);
    unit.onReading('garden', counter(100));
    mono.ms += 30 * MINUTE;
    unit.onReading('garden', counter(103));
    mono.ms += MINUTE;
    unit.onReading('garden', counter(1));
    expect(unit.extendInput('garden', {})).toEqual({});
    expect(unit.mowableHold('shed')).toBeUndefined();
  });
});

describe("RecentRain: the newest reading's rain unknown (a counter without baseline)", () => {
  it('holds mowable off until a reading whose rain is observed; readings saying nothing of rain keep the hold', () => {
    const mono = { ms: 0, now() { return this.ms; } };
    const unit = new RecentRain(mono);
    unit.onReading('garden', counter(53, { rainUnknown: true, bookedRainMm: 0 }));
    expect(unit.extendInput('garden', { temperature: 12 })).toEqual({ temperature: 12 });
    expect(unit.mowableHold('garden')).toMatchObject({ code: 'rain_unknown', reason: { en: expect.stringMatching(/rain that just fell is unknown/), de: expect.stringMatching(/unbekannt/) } });
    unit.onReading('garden', { timeMs: 0, values: { temperature: 11 }, rainCounters: [], fingerprint: 't', dropped: [] });
    expect(unit.mowableHold('garden')?.code).toBe('rain_unknown');
    expect(unit.mowableHold('shed')).toBeUndefined();
    mono.ms += 60_000;
    unit.onReading('garden', counter(53, { rainUnknown: false, bookedRainMm: 0 }));
    expect(unit.mowableHold('garden')).toBeUndefined();
  });

  it('says the remembered rain first when both hold', () => {
    const mono = { ms: 0, now() { return this.ms; } };
    const unit = new RecentRain(mono);
    unit.onReading('garden', counter(100, { rainUnknown: false, bookedRainMm: 2 }));
    unit.onReading('garden', counter(100, { rainUnknown: true, bookedRainMm: 0 }));
    unit.extendInput('garden', {});
    expect(unit.mowableHold('garden')?.code).toBe('recent_rain');
  });
});
