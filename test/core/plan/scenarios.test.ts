/**
 * The planner in situations (src/core/plan/planner.ts): the debt relaxation, a started slot, a moved slot,
 * a completed cut, the horizon, and a frost morning rated by the real core (slots start after the thaw).
 */
import { describe, expect, it } from 'vitest';
import { indexHours, type HourIndex } from '../../../src/core/forecastWindows.js';
import type { ProjectedHour } from '../../../src/core/forecastProjection.js';
import { planLawn, type PlanInput } from '../../../src/core/plan/planner.js';
import { HOUR_MS, MINUTE_MS, NEED, NO_DEBT, TIME_ZONE, WEEK_START_MS, hourOf, type HourSpec } from './planHelpers.js';

const OK: HourSpec = { status: 'OK', index: 85, rainMm: 0, rain: false, frost: false, bladesWet: false };
const WARN_DRY: HourSpec = { status: 'WARNING', index: 55, rainMm: 0, rain: false, frost: false, bladesWet: false };
const WARN_WET: HourSpec = { ...WARN_DRY, bladesWet: true };
const RAIN: HourSpec = { status: 'BLOCK', index: 20, rainMm: 2, rain: true, frost: false, bladesWet: true };
const DEBT = { mm: 12, runtimeMinutes: 240, overThreshold: true };
/** Tuesday 2 June 2026 08:00 CEST. */
const NOW = WEEK_START_MS + 24 * HOUR_MS + 8 * HOUR_MS;

function input(specs: readonly HourSpec[], extra: Partial<PlanInput> = {}): PlanInput {
  return {
    lawnId: 'garden',
    nowMs: NOW,
    timeZone: TIME_ZONE,
    hours: specs.map((spec, i) => hourOf(NOW + i * HOUR_MS, spec)),
    need: NEED,
    debt: NO_DEBT,
    mownMinutesThisWeek: 0,
    mower: { runMinutes: 120, minRunMinutes: 60, gapMinutes: 20 * 60, chargeMinutes: 60 },
    ...extra,
  };
}

/** A wet week: rain, with two dry-bladed WARNING mornings, and OK hours only after three days. */
function wetWeek(): HourSpec[] {
  return Array.from({ length: 120 }, (_, i) => (i >= 72 ? OK : i % 24 < 4 ? WARN_DRY : i % 24 < 8 ? WARN_WET : RAIN));
}

describe('the debt relaxation', () => {
  it('past the threshold takes a WARNING slot with dry blades within a day, and says so', () => {
    const plan = planLawn(input(wetWeek(), { debt: DEBT, need: { ...NEED, runtimeNeededMinutesThisWeek: 360 } }));
    const relaxed = plan.slots.filter((slot) => slot.relaxed);
    expect(relaxed).toHaveLength(1);
    expect(relaxed[0]!.band).toBe('WARNING');
    expect(relaxed[0]!.startMs).toBe(NOW);
    expect(relaxed[0]!.endMs - relaxed[0]!.startMs).toBe(120 * MINUTE_MS);
    expect(relaxed[0]!.reason.en).toContain('rather than another day without cutting');
    expect(relaxed[0]!.reason.de).toContain('statt eines weiteren Tages ohne Schnitt');
    expect(plan.status).toBe('behind');
    expect(plan.statusReason.en).toContain('12 mm past the one-third rule');
    expect(plan.statusReason.en).toContain(
      '1 slot on dry blades at WARNING proposed rather than another day without cutting, 6 h of the 6 h still needed this week planned.',
    );
    expect(plan.statusReason.de).toContain(
      '1 Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen statt eines weiteren Tages ohne Schnitt',
    );
    expect(plan.statusReason.de).toContain('Ein-Drittel-Regel');
    // Every other slot is OK: the OK days hold the rest, and OK comes before WARNING.
    expect(plan.slots.filter((slot) => !slot.relaxed).every((slot) => slot.band === 'OK' && slot.startMs >= NOW + 72 * HOUR_MS)).toBe(true);
  });

  it('past the threshold fills the dry-bladed WARNING mornings too when the OK days cannot hold the need', () => {
    // The week's full need (600 min): the three OK slots the gap allows hold 360; the three dry mornings take the rest.
    const plan = planLawn(input(wetWeek(), { debt: DEBT }));
    const relaxed = plan.slots.filter((slot) => slot.relaxed);
    // One on each dry morning (the 20 h gap allows no more), each inside it.
    expect(relaxed.map((slot) => Math.floor((slot.startMs - NOW) / (24 * HOUR_MS)))).toEqual([0, 1, 2]);
    for (const slot of relaxed) expect((slot.endMs - NOW) % (24 * HOUR_MS)).toBeLessThanOrEqual(4 * HOUR_MS);
    expect(relaxed.every((slot) => slot.band === 'WARNING')).toBe(true);
    expect(plan.plannedMinutesThisWeek).toBeGreaterThanOrEqual(600);
    expect(plan.status).toBe('behind');
    expect(plan.statusReason.en).toContain('3 slots on dry blades at WARNING proposed');
    expect(plan.statusReason.de).toContain('3 Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen');
  });

  it('under the threshold takes no WARNING slot', () => {
    const plan = planLawn(input(wetWeek()));
    expect(plan.slots.every((slot) => slot.band === 'OK' && !slot.relaxed)).toBe(true);
    expect(plan.slots[0]!.startMs).toBeGreaterThanOrEqual(NOW + 72 * HOUR_MS);
  });

  it('never takes a WARNING slot with wet blades, nor a BLOCK one, however large the debt', () => {
    const specs = Array.from({ length: 48 }, (_, i) => (i % 2 === 0 ? WARN_WET : RAIN));
    const plan = planLawn(input(specs, { debt: { mm: 40, runtimeMinutes: 900, overThreshold: true } }));
    expect(plan.slots).toEqual([]);
    expect(plan.status).toBe('cannot_keep_up');
    expect(plan.statusReason.en).toMatch(
      /^Cannot keep up: 0 min of the 15 h of mowing still needed this week planned\. The rest does not fit: no more allowed dry time \(the other hours: rain 24 h, wet blades 24 h\) until the forecast ends, and the rest of the week lies beyond the forecast horizon\. Nothing is planned past/,
    );
    expect(plan.statusReason.de).toMatch(
      /^Nicht zu schaffen: 0 Min\. der 15 Std\. noch nötigen Mähzeit dieser Woche geplant\. Der Rest passt nicht: keine weitere erlaubte trockene Zeit bis zum Ende der Vorhersage \(die übrigen Stunden: Regen 24 Std\., nasse Halme 24 Std\.\)/,
    );
  });

  it('cannot keep up in a week of rain with a forecast past its end: says the rest of the week holds no allowed dry time', () => {
    const specs = Array.from({ length: 150 }, (_, i) => (i % 24 === 10 ? WARN_DRY : RAIN));
    const plan = planLawn(input(specs, { debt: DEBT, mower: { runMinutes: 120, minRunMinutes: 60, gapMinutes: 60, chargeMinutes: 60 } }));
    expect(plan.status).toBe('cannot_keep_up');
    expect(plan.statusReason.en).toMatch(
      /^Cannot keep up: 6 slots on dry blades at WARNING proposed, 6 h of the 10 h of mowing still needed this week planned\. The rest does not fit: no more allowed dry time \(the other hours: rain \d+ h\) until the week ends\. Nothing is planned past/,
    );
    expect(plan.statusReason.de).toMatch(
      /^Nicht zu schaffen: 6 Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen, 6 Std\. der 10 Std\. noch nötigen Mähzeit dieser Woche geplant\. Der Rest passt nicht: keine weitere erlaubte trockene Zeit bis zum Ende der Woche \(die übrigen Stunden: Regen \d+ Std\.\)\./,
    );
  });

  it('takes an OK slot within the day, unrelaxed, when there is one and it leaves room for the need', () => {
    const specs = Array.from({ length: 96 }, (_, i) => (i >= 10 && i < 14 ? OK : i < 24 ? WARN_DRY : RAIN));
    const small = { need: { ...NEED, runtimeNeededMinutesThisWeek: 120 }, debt: { ...DEBT, runtimeMinutes: 120 } };
    const plan = planLawn(input(specs, small));
    expect(plan.slots).toHaveLength(1);
    expect(plan.slots[0]).toMatchObject({ band: 'OK', relaxed: false, startMs: NOW + 10 * HOUR_MS });
    expect(plan.slots[0]!.reason.en).toContain('Mowing debt: the first safe slot within a day');
    // A larger need than the day holds: the OK slot in its middle would leave no room for a second run (the 20 h gap),
    // the two WARNING ones at its ends hold twice as much.
    const large = planLawn(input(specs, { debt: DEBT }));
    expect(large.slots.map((slot) => [(slot.startMs - NOW) / HOUR_MS, slot.band])).toEqual([
      [0, 'WARNING'],
      [22, 'WARNING'],
    ]);
  });
});

describe('stability', () => {
  const dryWeek = Array.from({ length: 120 }, () => OK);

  it('keeps a started slot even when its hours turn to rain', () => {
    const first = planLawn(input(dryWeek));
    const started = first.slots[0]!;
    const later = started.startMs + 30 * MINUTE_MS;
    const rainy = input(dryWeek.map(() => RAIN)).hours.filter((hour) => hour.endMs > later);
    const second = planLawn({ ...input(dryWeek), nowMs: later, hours: rainy, previous: first });
    expect(second.slots).toContainEqual(started);
    expect(second.changes.map((change) => change.slotId)).not.toContain(started.id);
  });

  it('moves a slot whose hours turned to rain: same id, sequence bumped, the reason names the old time', () => {
    const first = planLawn(input(dryWeek));
    const target = first.slots[1]!;
    const hours = input(dryWeek).hours.map((hour) =>
      hour.startMs < target.endMs && hour.endMs > target.startMs
        ? { ...hour, status: 'BLOCK' as const, index: 20, rainExpected: true, expectedRainMm: 3 }
        : hour,
    );
    const second = planLawn({ ...input(dryWeek), hours, previous: first });
    const moved = second.slots.find((slot) => slot.id === target.id)!;
    expect(moved.startMs).not.toBe(target.startMs);
    expect(moved.sequence).toBe(target.sequence + 1);
    expect(moved.changedAtMs).toBe(NOW);
    const change = second.changes.find((c) => c.slotId === target.id)!;
    expect(change.kind).toBe('moved');
    expect(change.reason.en).toMatch(/^Moved from Wed 3 Jun \d\d:\d\d: rain is expected then\./);
    expect(change.reason.de).toMatch(/^Verschoben von Mi 3\.6\. \d\d:\d\d: dann ist Regen zu erwarten\./);
    for (const slot of first.slots) if (slot.id !== target.id) expect(second.slots).toContainEqual(slot);
  });

  it('shortens a slot whose last hour turned to rain, keeping the dry part', () => {
    const first = planLawn(input(dryWeek));
    const target = first.slots[1]!;
    const lastHour = target.endMs - HOUR_MS;
    const hours = input(dryWeek).hours.map((hour) => (hour.startMs === lastHour ? { ...hour, status: 'BLOCK' as const, index: 30 } : hour));
    const second = planLawn({ ...input(dryWeek), hours, previous: first });
    const shortened = second.slots.find((slot) => slot.id === target.id)!;
    expect([shortened.startMs, shortened.endMs, shortened.sequence]).toEqual([target.startMs, lastHour, 1]);
    expect(second.changes.find((c) => c.slotId === target.id)?.kind).toBe('shortened');
  });

  it('removes the latest slots once a completed cut covers the need, each with its reason', () => {
    const first = planLawn(input(dryWeek));
    const second = planLawn({ ...input(dryWeek), mownMinutesThisWeek: NEED.runtimeNeededMinutesThisWeek, previous: first });
    const removed = second.changes.filter((change) => change.kind === 'removed');
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((change) => change.reason.en === 'Removed: the need is covered without it.')).toBe(true);
    expect(second.status).toBe('on_track');
  });
});

describe('the horizon', () => {
  it('plans nothing past the last forecast hour and says where that is', () => {
    const plan = planLawn(input(Array.from({ length: 30 }, () => OK)));
    expect(plan.horizonEndMs).toBe(NOW + 30 * HOUR_MS);
    expect(plan.slots.every((slot) => slot.endMs <= plan.horizonEndMs)).toBe(true);
    expect(plan.statusReason.en).toContain('Nothing is planned past Wed 3 Jun 14:00, where the forecast ends.');
    expect(plan.statusReason.de).toContain('Nach Mi 3.6. 14:00 ist nichts geplant');
  });

  it('without forecast hours plans nothing and says so', () => {
    const plan = planLawn(input([]));
    expect(plan.slots).toEqual([]);
    expect(plan.horizonEndMs).toBe(NOW);
    expect(plan.statusReason.en).toContain('There are no forecast hours');
  });
});

describe('a frost morning, rated by the core', () => {
  it('starts the first slot only after the blades have thawed (air 8 °C), never at 6 °C after a +1 °C night', () => {
    // 14 October 2026, Berlin (CEST, UTC+2): +1 °C at 05:00, rising 1 K an hour, low sun; dry.
    const midnight = Date.UTC(2026, 9, 13, 22, 0);
    const temps = [3, 2, 2, 1.5, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 11, 10, 9, 8, 7, 6];
    const projected: ProjectedHour[] = temps.map((temperature, hour) => ({
      startMs: midnight + hour * HOUR_MS,
      endMs: midnight + (hour + 1) * HOUR_MS,
      input: {
        temperature,
        precipitation_rate: 0,
        humidity: 70,
        wind_speed: 8,
        solar: hour >= 8 && hour <= 16 ? 150 : 0,
        rain_24h: 0,
        rain_14d: 20,
        minutes_since_rain: 3000,
        min_temp_3h: Math.min(...temps.slice(Math.max(0, hour - 3), hour + 1)),
        min_temp_3d: 1,
        min_temp_14d: 1,
        soil_temperature: 9,
        blade_drying_minutes: 0,
      },
      inputSource: {},
      expectedRainMm: 0,
      rainExpected: false,
    }));
    const hours: HourIndex[] = indexHours(projected, { nowMs: midnight, timeZone: TIME_ZONE, hemisphere: 'north' });
    const thawHour = temps.indexOf(8);
    for (const hour of hours.slice(0, thawHour)) expect(hour.status).toBe('BLOCK');
    const plan = planLawn({
      ...input([]),
      nowMs: midnight,
      hours,
      mower: { runMinutes: 60, minRunMinutes: 30, gapMinutes: 0, chargeMinutes: 0 },
      debt: { mm: 10, runtimeMinutes: 60, overThreshold: true },
    });
    expect(plan.slots.length).toBeGreaterThan(0);
    expect(plan.slots[0]!.startMs).toBeGreaterThanOrEqual(midnight + thawHour * HOUR_MS);
  });
});
