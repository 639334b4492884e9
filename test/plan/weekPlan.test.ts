/**
 * The week plan end to end: the whole daemon with a station of two lawns (different mowers), the fake
 * Open-Meteo serving seven days, an injected clock, real SQLite and the embedded broker. A dry week is on
 * track; a wet week after a week without cutting is behind, takes WARNING slots with dry blades (the
 * relaxation) and says so; a forecast update mid-week changes only the slots whose hours changed, each
 * change with a reason on `<base>/<lawn>/plan/changed`, and the plan keeps its slot ids and sequences
 * across restarts; Home Assistant's sensors of both lawns pass HA's discovery rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LawnPlan, PlanSlot } from '../../src/core/plan/types.js';
import { localDateTime } from '../../src/core/season.js';
import { join } from 'node:path';
import { Database } from '../../src/store/database.js';
import { haDiscoveryViolations } from '../helpers/haRules.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { clearSkySolar, dryHour, type HourWeather } from './weekForecast.js';
import { DAY_MS, HOUR_MS, WeekDaemon } from './weekHarness.js';
import type { StationPlanState } from '../../src/lawn/planUnit.js';

const MONDAY = Date.parse('2026-06-15T04:00:00Z');
const ZONE = 'Europe/Berlin';

/** A wet week: rain from the evening to the morning; dry but humid, cool afternoons (the index says WARNING, the blades are dry). */
function wetHour(ms: number): HourWeather {
  const hour = new Date(ms).getUTCHours();
  const rain = hour < 9 || hour >= 17;
  return {
    temperature: rain ? 12 : 11,
    humidity: rain ? 95 : 88,
    wind: 5,
    rainMm: rain ? 1.2 : 0,
    probability: rain ? 90 : 10,
    solar: rain ? 80 : clearSkySolar(ms) * 0.4,
  };
}

const localDay = (ms: number) => {
  const t = localDateTime(ms, ZONE);
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
};
const overlaps = (slot: Pick<PlanSlot, 'startMs' | 'endMs'>, fromMs: number, toMs: number) => slot.startMs < toMs && slot.endMs > fromMs;

function expectSaneSlots(plan: LawnPlan): void {
  for (const [index, slot] of plan.slots.entries()) {
    expect(slot.endMs).toBeGreaterThan(slot.startMs);
    expect(slot.reason.en.length).toBeGreaterThan(0);
    expect(slot.reason.de.length).toBeGreaterThan(0);
    const next = plan.slots[index + 1];
    if (next) expect(next.startMs).toBeGreaterThanOrEqual(slot.endMs);
    // The night ban (sunset to sunrise with 30 min margins): in Munich in June no slot between 20:00 and 03:00 UTC.
    for (let t = slot.startMs; t < slot.endMs; t += 5 * 60_000) {
      const hour = new Date(t).getUTCHours();
      expect(hour >= 20 || hour < 3, `${new Date(t).toISOString()} in a slot at night`).toBe(false);
    }
  }
}

/**
 * Monday's first plans, both lawns cut, two dry days, then Wednesday: a restart with a fresh
 * seven-day forecast; the plans of that moment.
 */
async function dryDaysToWednesday(week: WeekDaemon): Promise<StationPlanState> {
  await week.start(dryHour);
  week.feed(dryHour(week.clock.ms));
  await week.plannedNow('the first plans');
  await week.cut('garden');
  await week.cut('back');
  await week.replay(2, dryHour);
  await week.stop();
  await week.start(dryHour);
  week.feed(dryHour(week.clock.ms));
  return week.plannedNow('the plans on Wednesday');
}

describe('the week plan end to end', () => {
  let fake: FakeOpenMeteo;
  let week: WeekDaemon | undefined;
  let observer: RecordingClient | undefined;

  beforeEach(async () => {
    fake = await FakeOpenMeteo.start();
  });
  afterEach(async () => {
    await observer?.close();
    observer = undefined;
    await week?.cleanup();
    week = undefined;
    await fake.close();
  });

  it('a dry week is on track for both lawns, each with its own mower, cut history and Home Assistant sensors', async () => {
    week = new WeekDaemon(fake, MONDAY);
    const state = await dryDaysToWednesday(week);
    const front = state.lawns.garden!;
    const back = state.lawns.back!;
    expect(front.need).toMatchObject({ minutesPerFullCut: 180, capacitySource: 'area', targetHeightMm: 40 });
    expect(back.need).toMatchObject({ minutesPerFullCut: 720, capacitySource: 'area' });
    // Two days at about 14 degree-days a day: some 11 mm grown on both (the same weather), a quarter of the runtime on the quick robot.
    expect(front.need.heightMm).toBeGreaterThan(45);
    expect(back.need.heightMm).toBe(front.need.heightMm);
    expect(back.need.runtimeNeededMinutesThisWeek).toBe(4 * front.need.runtimeNeededMinutesThisWeek);
    for (const plan of [front, back]) {
      expect(plan.status, plan.statusReason.en).toBe('on_track');
      expect(plan.statusReason.de).toMatch(/^Im Plan/);
      expect(plan.debt).toMatchObject({ mm: 0, overThreshold: false });
      expect(plan.slots.length).toBeGreaterThan(0);
      expect(plan.slots.every((slot) => slot.band === 'OK' && !slot.relaxed)).toBe(true);
      expect(plan.plannedMinutesThisWeek).toBeGreaterThanOrEqual(plan.need.runtimeNeededMinutesThisWeek);
      expect(plan.horizonEndMs).toBeGreaterThanOrEqual(week.clock.ms + 6.5 * DAY_MS);
      expectSaneSlots(plan);
    }
    expect(state.next.garden).toEqual({
      start: new Date(front.slots.find((slot) => slot.endMs > week!.clock.ms)!.startMs).toISOString(),
      end: new Date(front.slots.find((slot) => slot.endMs > week!.clock.ms)!.endMs).toISOString(),
    });

    observer = await RecordingClient.connect(week.brokerPort);
    await observer.client.subscribeAsync(['homeassistant/+/+/config'], { qos: 1 });
    // The back lawn is cut: its own plan is made again from its new height; the front lawn's stays as it was.
    await week.cut('back');
    expect(week.lawnPlan('back')!.need.heightMm).toBe(40);
    expect(week.lawnPlan('garden')!.need.heightMm).toBe(front.need.heightMm);
    expect(week.lawnPlan('garden')!.slots).toEqual(front.slots);

    // `mowability mowed garden --lawn back` records the back lawn's own cut under its id (the CLI reads the system clock).
    const cliAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    const cliEnv = { MOWABILITY_CONFIG: join(week.temp.dir, 'config.json'), MOWABILITY_DB_PATH: week.temp.dbPath };
    const wrongLawn = await runCliInProcess(['mowed', 'garden', '--lawn', 'orchard', '--at', cliAt], cliEnv);
    expect(wrongLawn.stderr).toMatch(/--lawn: "orchard" is not a lawn of "garden" \(its lawns: garden, back\)/);
    const recorded = await runCliInProcess(['mowed', 'garden', '--lawn', 'back', '--at', cliAt, '--json'], cliEnv);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(JSON.parse(recorded.stdout)).toEqual({ station: 'garden', lawn: 'back', last_cut_at: cliAt });
    const database = await Database.open(week.temp.dbPath);
    const rows = await database.all<{ station: string; source: string }>("SELECT station, source FROM lawn_cuts WHERE station = 'back'");
    await database.close();
    expect(rows).toEqual([{ station: 'back', source: 'cli' }]);

    // Both lawns' sensors on the station's device: the first lawn with today's ids, the back lawn's prefixed.
    const keys = [
      'next_planned_start',
      'next_planned_end',
      'runtime_needed_week',
      'runtime_planned_week',
      'mowing_debt',
      'mowing_debt_hours',
      'grass_height',
      'plan_status',
    ];
    const topics = keys.flatMap((key) => [key, `back_${key}`].map((id) => `homeassistant/sensor/mowability_garden_${id}/config`));
    await waitUntil(() => topics.every((topic) => observer!.json(topic) !== undefined), 'the plan sensors of both lawns');
    for (const topic of topics) expect(haDiscoveryViolations(topic, observer.json(topic)!)).toEqual([]);
    expect(observer.json('homeassistant/sensor/mowability_garden_plan_status/config')).toMatchObject({
      device_class: 'enum',
      options: ['on_track', 'behind', 'cannot_keep_up'],
    });
    expect(observer.json('homeassistant/sensor/mowability_garden_back_grass_height/config')).toMatchObject({
      name: 'Back lawn grass height estimate',
      unit_of_measurement: 'mm',
      state_class: 'measurement',
    });
    expect(observer.json('homeassistant/sensor/mowability_garden_back_next_planned_start/config')).toMatchObject({
      device_class: 'timestamp',
    });
  }, 120_000);

  it('a wet week after a week without cutting: the debt grows, the plan takes WARNING slots with dry blades and says so', async () => {
    week = new WeekDaemon(fake, MONDAY - 6 * DAY_MS);
    await week.start(dryHour);
    week.feed(dryHour(week.clock.ms));
    await week.plannedNow('the first plans', 0.5);
    await week.cut('garden');
    await week.cut('back');
    await week.replay(7, dryHour);
    await week.stop();
    // Tuesday 16 June: a week of growth behind, and a wet week ahead.
    week.clock.ms = MONDAY + DAY_MS;
    await week.start(wetHour);
    week.feed(wetHour(week.clock.ms));
    const state = await week.plannedNow('the plans in the wet week');
    const front = state.lawns.garden!;
    expect(front.debt.overThreshold, JSON.stringify(front.debt)).toBe(true);
    expect(front.debt.mm).toBeGreaterThan(0);
    expect(front.debt.runtimeMinutes).toBeGreaterThan(0);
    for (const plan of [front, state.lawns.back!]) {
      expect(plan.status).not.toBe('on_track');
      expectSaneSlots(plan);
      // From now on (the week's earlier slots stay as they were): only WARNING slots with dry blades, in the dry afternoons.
      const ahead = plan.slots.filter((slot) => slot.endMs > week!.clock.ms);
      expect(ahead.length).toBeGreaterThan(0);
      expect(
        ahead.every((slot) => slot.band === 'WARNING' && slot.relaxed),
        JSON.stringify(ahead),
      ).toBe(true);
      expect(ahead[0]!.reason.en).toMatch(/^Mowing debt: a WARNING slot/);
      expect(ahead[0]!.reason.de).toMatch(/^Mährückstand: ein WARNING-Zeitfenster/);
      for (const slot of ahead) {
        expect(new Date(slot.startMs).getUTCHours()).toBeGreaterThanOrEqual(9);
        expect(slot.endMs).toBeLessThanOrEqual(Date.parse(new Date(slot.startMs).toISOString().slice(0, 10) + 'T17:00:00Z'));
      }
    }
    // The dry afternoons (12:00 to 15:40 UTC: the blades dry after the morning rain, the rain lead before the evening's) are filled
    // up to the need, not one relaxed slot a day: the quick robot's need fits, over several days; the slow robot's (four times as
    // long) cannot, so it takes a run and what is left of each afternoon, and its status says what was proposed and why not more.
    const ahead = (plan: LawnPlan) => plan.slots.filter((slot) => slot.endMs > week!.clock.ms);
    expect(new Set(ahead(front).map((slot) => localDay(slot.startMs))).size).toBeGreaterThan(1);
    expect(front.status, front.statusReason.en).toBe('behind');
    expect(front.plannedMinutesThisWeek).toBeGreaterThanOrEqual(front.need.runtimeNeededMinutesThisWeek);
    const proposed = (plan: LawnPlan) => ahead(plan).filter((slot) => slot.relaxed).length;
    expect(front.statusReason.en).toContain(
      `${proposed(front)} slots on dry blades at WARNING proposed rather than another day without cutting`,
    );
    expect(front.statusReason.de).toContain(`${proposed(front)} Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen`);
    const back = state.lawns.back!;
    expect(back.status).toBe('cannot_keep_up');
    const weekEndMs = Date.parse('2026-06-21T22:00:00Z');
    const backThisWeek = ahead(back).filter((slot) => slot.startMs < weekEndMs);
    const backDays = new Set(backThisWeek.map((slot) => localDay(slot.startMs)));
    const backMinutes = backThisWeek.reduce((sum, slot) => sum + (slot.endMs - slot.startMs) / 60_000, 0);
    // More than one run (120 min) a day: what one relaxed slot a day planned before.
    expect(backMinutes).toBeGreaterThan(120 * backDays.size);
    expect(back.statusReason.en).toMatch(
      new RegExp(
        `^Cannot keep up: ${proposed(back)} slots on dry blades at WARNING proposed, \\d+ h( \\d+ min)? of the \\d+ h( \\d+ min)? of mowing still needed this week planned\\. The rest does not fit: no more allowed dry time \\(the other hours: [^)]*rain[^)]*\\) until the (forecast|week) ends`,
      ),
    );
    expect(back.statusReason.de).toMatch(
      /^Nicht zu schaffen: \d+ Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen, .* Der Rest passt nicht: /,
    );

    // The stated relaxation where the user looks: Home Assistant's plan status sensor (its attributes read the state topic) and the page.
    observer = await RecordingClient.connect(week.brokerPort);
    await observer.client.subscribeAsync(['homeassistant/sensor/mowability_garden_plan_status/config', 'mowability/garden/state'], {
      qos: 1,
    });
    await waitUntil(() => observer!.json('mowability/garden/state') !== undefined, 'the retained state');
    const sensor = observer.json('homeassistant/sensor/mowability_garden_plan_status/config') as { json_attributes_template: string };
    expect(sensor.json_attributes_template).toContain("['garden'].statusReason.en");
    const published = observer.json('mowability/garden/state') as { plan: StationPlanState };
    expect(published.plan.lawns.garden!.statusReason.en).toContain('slots on dry blades at WARNING proposed');
    const answer = await fetch(`${week.daemon!.httpAddress}/v1/stations/garden`);
    expect(answer.status, await answer.clone().text()).toBe(200);
    const page = ((await answer.json()) as { station: unknown }).station as {
      plan: { lawns: Array<{ id: string; status_reason: { en: string; de: string }; planned_minutes: number }> };
    };
    const shown = page.plan.lawns.find((lawn) => lawn.id === 'back')!;
    expect(shown.status_reason).toEqual(week.lawnPlan('back')!.statusReason);
    expect(shown.status_reason.de).toContain('Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen');

    // A day of rain later the debt has grown.
    await week.replay(1, wetHour);
    week.feed(wetHour(week.clock.ms));
    await waitUntil(() => week!.lawnPlan('garden')?.computedAtMs === week!.clock.ms, 'the plan a day later', 20_000);
    expect(week.lawnPlan('garden')!.debt.mm).toBeGreaterThan(front.debt.mm);
  }, 120_000);

  it('a forecast update mid-week changes only the slots whose hours changed, each with its reason; ids and sequences survive restarts', async () => {
    week = new WeekDaemon(fake, MONDAY);
    const before = await dryDaysToWednesday(week);
    await week.stop();

    // An hour later, the daemon restarts with the same forecast cached: the plan is the same (ids, times, sequences).
    week.clock.ms += HOUR_MS + 60_000;
    let open: (body: string) => void = () => {};
    fake.script.push({ kind: 'gate', opened: new Promise<string>((resolve) => (open = resolve)) });
    await week.start(dryHour);
    week.feed(dryHour(week.clock.ms));
    await waitUntil(() => week!.lawnPlan('garden')?.computedAtMs === week!.clock.ms, 'the plan after the restart', 20_000);
    for (const lawnId of ['garden', 'back']) {
      const restarted = week.lawnPlan(lawnId)!;
      const upcoming = before.lawns[lawnId]!.slots.filter((slot) => slot.endMs > week!.clock.ms);
      // Every slot still ahead is kept exactly; the hour that passed may add one at the far end of the forecast, nothing else.
      for (const slot of upcoming) expect(restarted.slots).toContainEqual(slot);
      expect(restarted.changes.filter((change) => change.kind !== 'added')).toEqual([]);
    }

    // The update: rain over the next slot's hours (an hour either side); every hour of the day after is 0.1 °C warmer and 1 % more humid.
    observer = await RecordingClient.connect(week.brokerPort);
    await observer.client.subscribeAsync(['mowability/+/plan/changed'], { qos: 1 });
    const target = before.lawns.garden!.slots.find((slot) => slot.startMs >= week!.clock.ms + 3 * HOUR_MS)!;
    const fridayFrom = Math.floor(target.startMs / HOUR_MS) * HOUR_MS - HOUR_MS;
    const fridayTo = Math.ceil(target.endMs / HOUR_MS) * HOUR_MS + HOUR_MS;
    const updated = (ms: number): HourWeather => {
      const dry = dryHour(ms);
      if (ms > fridayFrom && ms <= fridayTo) return { ...dry, humidity: 92, rainMm: 2.5, probability: 90, solar: 60 };
      if (localDay(ms) === localDay(fridayTo + DAY_MS)) return { ...dry, temperature: dry.temperature + 0.1, humidity: dry.humidity + 1 };
      return dry;
    };
    const { weekForecastBody } = await import('./weekForecast.js');
    open(weekForecastBody(week.clock.ms, updated));
    await waitUntil(() => observer!.json('mowability/garden/plan/changed') !== undefined, "the front lawn's plan change", 20_000);
    const message = observer.json('mowability/garden/plan/changed') as { lawn: string; changes: LawnPlan['changes']; plan: LawnPlan };
    const previous = new Map(before.lawns.garden!.slots.map((slot) => [slot.id, slot]));
    // What the update touches: the rain lead before the first wet hour, and the blades drying for hours after the last.
    const wetFrom = fridayFrom - HOUR_MS;
    const wetUntil = fridayTo + 12 * HOUR_MS;
    expect(message.changes.length).toBeGreaterThan(0);
    for (const change of message.changes) {
      expect(change.reason.en.length, JSON.stringify(change)).toBeGreaterThan(0);
      expect(change.reason.de.length).toBeGreaterThan(0);
      // Every slot that was changed or dropped had hours in the new rain or its wake; new ones may go anywhere to make up for it.
      const old = previous.get(change.slotId);
      if (change.kind !== 'added') expect(old && overlaps(old, wetFrom, wetUntil), JSON.stringify(change)).toBe(true);
    }
    // Every slot clear of the rain and its wake is kept exactly: same id, times and sequence (Thursday's small changes move nothing).
    for (const slot of before.lawns.garden!.slots) {
      if (slot.endMs <= week.clock.ms || overlaps(slot, wetFrom, wetUntil)) continue;
      expect(message.plan.slots).toContainEqual(slot);
    }
    for (const slot of message.plan.slots) expect(overlaps(slot, fridayFrom - 30 * 60_000, fridayTo)).toBe(false);
    // A changed slot that survived carries a higher sequence (the iCalendar SEQUENCE).
    for (const slot of message.plan.slots) {
      const old = previous.get(slot.id);
      if (old && (old.startMs !== slot.startMs || old.endMs !== slot.endMs)) expect(slot.sequence).toBeGreaterThan(old.sequence);
    }
    expect(week.lawnPlan('garden')!.slots).toEqual(message.plan.slots);
  }, 120_000);
});
