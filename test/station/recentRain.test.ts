import { describe, expect, it } from 'vitest';
import type { TimedReading } from '../../src/history/stationHistory.js';
import { RecentRain } from '../../src/station/recentRain.js';
import type { ClockStep } from '../../src/util/clockWatch.js';

const MINUTE = 60_000;
const STEP_BACK: ClockStep = { deltaMs: -86_400_000, direction: 'back', atMs: 0 };

/** The monotonic clock the unit measures the hour on; tests move `ms`. */
function monotonicClock(): { ms: number; now(): number } {
  return {
    ms: 0,
    now() {
      return this.ms;
    },
  };
}

/** The unit right after the wall clock was set back a day: the history cannot place recent rain. */
function steppedBack(mono: { now(): number }): RecentRain {
  const unit = new RecentRain(mono);
  unit.clockStepped(STEP_BACK);
  return unit;
}

function counter(totalMm: number, extra: Partial<TimedReading> = {}): TimedReading {
  return { timeMs: 0, values: {}, rainCounters: [{ key: 'c', totalMm }], fingerprint: String(totalMm), dropped: [], ...extra };
}

describe('RecentRain (rain of the last hour on the monotonic clock)', () => {
  it('supplies rain the history does not show and holds mowable off after a clock step, until the hour is over', () => {
    const mono = monotonicClock();
    const unit = steppedBack(mono);
    expect(unit.extendInput('garden', { temperature: 14 })).toEqual({ temperature: 14 });
    unit.onReading('garden', counter(100));
    mono.ms += 5 * MINUTE;
    unit.onReading('garden', counter(104));
    mono.ms += 2 * MINUTE;
    unit.onReading('garden', { timeMs: 0, values: {}, rainCounters: [], rainDeltaMm: 0.5, fingerprint: 'd', dropped: [] });
    // The history withholds its windows (the clock stepped): the unit supplies them and holds.
    expect(unit.extendInput('garden', { temperature: 14 })).toEqual({ temperature: 14, rain_1h: 4.5, minutes_since_rain: 0 });
    expect(unit.mowableHold('garden')?.code).toBe('recent_rain');
    expect(unit.mowableHold('garden')?.reason.en).toMatch(
      /^the system clock was set back by 1 d 7 min ago, so the history cannot place the 4\.5 mm of rain the station reported in the last hour/,
    );
    expect(unit.mowableHold('garden')?.reason.de).toMatch(
      /^die Systemuhr wurde vor 7 min um 1 Tag zurückgestellt, daher kann der Verlauf die 4,5 mm Regen/,
    );
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
    const mono = monotonicClock();
    const unit = steppedBack(mono);
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
    const mono = monotonicClock();
    const unit = new RecentRain(mono);
    unit.onReading('garden', counter(53, { rainUnknown: true, bookedRainMm: 0 }));
    expect(unit.extendInput('garden', { temperature: 12 })).toEqual({ temperature: 12 });
    expect(unit.mowableHold('garden')).toMatchObject({
      code: 'rain_unknown',
      reason: { en: expect.stringMatching(/rain that just fell is unknown/), de: expect.stringMatching(/unbekannt/) },
    });
    unit.onReading('garden', { timeMs: 0, values: { temperature: 11 }, rainCounters: [], fingerprint: 't', dropped: [] });
    expect(unit.mowableHold('garden')?.code).toBe('rain_unknown');
    expect(unit.mowableHold('shed')).toBeUndefined();
    mono.ms += 60_000;
    unit.onReading('garden', counter(53, { rainUnknown: false, bookedRainMm: 0 }));
    expect(unit.mowableHold('garden')).toBeUndefined();
  });

  it('says the remembered rain first when both hold', () => {
    const mono = monotonicClock();
    const unit = steppedBack(mono);
    unit.onReading('garden', counter(100, { rainUnknown: false, bookedRainMm: 2 }));
    unit.onReading('garden', counter(100, { rainUnknown: true, bookedRainMm: 0 }));
    unit.extendInput('garden', {});
    expect(unit.mowableHold('garden')?.code).toBe('recent_rain');
  });
});

describe('RecentRain only while the wall clock is in doubt (the history is the ledger)', () => {
  function raining(unit: RecentRain, mono: { ms: number }, extra: Partial<TimedReading> = {}): void {
    unit.onReading('garden', counter(100));
    mono.ms += MINUTE;
    unit.onReading('garden', counter(102, extra));
  }

  it('with a trusted clock changes nothing, however much more it remembers than the history shows', () => {
    const mono = monotonicClock();
    const unit = new RecentRain(mono, () => 'synchronized');
    raining(unit, mono);
    const input = { rain_1h: 0.2, minutes_since_rain: 0 };
    expect(unit.extendInput('garden', input)).toBe(input);
    expect(unit.extendInput('garden', {})).toEqual({});
    expect(unit.mowableHold('garden')).toBeUndefined();
  });

  it('an unsynchronised clock: supplies and says so', () => {
    const mono = monotonicClock();
    const unit = new RecentRain(mono, () => 'unsynchronized');
    raining(unit, mono);
    expect(unit.extendInput('garden', {})).toEqual({ rain_1h: 2, minutes_since_rain: 0 });
    expect(unit.mowableHold('garden')).toMatchObject({
      code: 'recent_rain',
      reason: {
        en: expect.stringMatching(/^the system clock is not synchronised yet \(NTP\), so the history cannot place the 2 mm/),
        de: expect.stringMatching(/^die Systemuhr ist noch nicht synchronisiert/),
      },
    });
  });

  it('a history stamped after now (the clock set back before this start): supplies and says so, for an hour', () => {
    const mono = monotonicClock();
    const unit = new RecentRain(mono);
    raining(unit, mono, { historyAheadOfClock: true });
    expect(unit.extendInput('garden', {})).toEqual({ rain_1h: 2, minutes_since_rain: 0 });
    expect(unit.mowableHold('garden')?.reason.en).toMatch(
      /^the history holds readings stamped later than the current time \(the clock was set back/,
    );
    mono.ms += 61 * MINUTE;
    expect(unit.extendInput('garden', {})).toEqual({});
    expect(unit.mowableHold('garden')).toBeUndefined();
  });

  it('a step more than an hour ago no longer counts', () => {
    const mono = monotonicClock();
    const unit = steppedBack(mono);
    mono.ms += 61 * MINUTE;
    raining(unit, mono);
    expect(unit.extendInput('garden', {})).toEqual({});
  });

  it("caps each arrival minute at the world record and the hour at rain_1h's maximum, as the history does", () => {
    const mono = monotonicClock();
    const unit = steppedBack(mono);
    unit.onReading('garden', counter(0));
    for (let minute = 1; minute <= 20; minute++) {
      mono.ms += MINUTE;
      unit.onReading('garden', counter(minute * 9000));
    }
    expect(unit.extendInput('garden', {}).rain_1h).toBe(500);
    mono.ms += MINUTE;
    const one = new RecentRain(mono);
    one.clockStepped(STEP_BACK);
    one.onReading('garden', counter(0));
    one.onReading('garden', counter(9000));
    expect(one.extendInput('garden', {}).rain_1h).toBe(31.2);
  });
});
