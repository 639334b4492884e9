/**
 * The lawn memory unit across wall-clock steps (a Pi without a real-time clock, then NTP): after
 * the unit hears of the step, readings on the new clock continue the balance. The control without
 * the re-base shows what a step did before: the blades unknown after a "gap" of a year, and
 * readings after a step back ignored as out of order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ClockStep } from '../../src/util/clockWatch.js';
import { FakeClock, mqttTempDir } from '../helpers/mqttHarness.js';
import { replay, startLawnDaemon, type LawnDaemon, type Weather } from './lawnHarness.js';

const DAY_MS = 86_400_000;
const sunny: Weather = { temperature: 20, humidity: 55, wind_speed: 8, solar: 500 };
const at = (iso: string, shiftMs: number): string => new Date(Date.parse(iso) + shiftMs).toISOString();

describe('lawn memory across clock steps', () => {
  let lawn: LawnDaemon | undefined;
  let temp: ReturnType<typeof mqttTempDir>;
  afterEach(async () => {
    await lawn?.stop();
    lawn = undefined;
    temp.cleanup();
  });

  async function stepped(deltaMs: number, tell: boolean) {
    temp = mqttTempDir();
    const clock = new FakeClock(Date.parse('2026-06-15T08:00:00Z'));
    lawn = await startLawnDaemon(temp.dbPath, clock);
    replay(lawn, clock, '2026-06-15T08:00:00Z', '2026-06-15T09:00:00Z', () => sunny);
    lawn.unit.handleMowed('garden', Buffer.from('now'), false);
    replay(lawn, clock, '2026-06-15T09:10:00Z', '2026-06-15T10:00:00Z', () => sunny);
    const before = lawn.state()!.lawn;
    clock.advance(deltaMs);
    const step: ClockStep = { deltaMs, direction: deltaMs > 0 ? 'forward' : 'back', atMs: clock.now() };
    if (tell) lawn.unit.clockStepped(step);
    replay(lawn, clock, at('2026-06-15T10:10:00Z', deltaMs), at('2026-06-15T11:00:00Z', deltaMs), () => sunny);
    return { before, after: lawn.state()!.lawn };
  }

  it.each([
    ['a year forward', 365 * DAY_MS],
    ['a day back', -DAY_MS],
  ])('goes on from the balance after a step %s', async (_name, deltaMs) => {
    const { before, after } = await stepped(deltaMs, true);
    expect(after.blades_wet).toBe(false);
    // An hour of 20 °C weather since the cut, and an hour more after the step: 15/24 degree-days each.
    // (the state rounds to 0.1)
    expect(Math.abs((before.gdd_since_cut as number) - 15 / 24)).toBeLessThanOrEqual(0.06);
    expect(Math.abs((after.gdd_since_cut as number) - 30 / 24)).toBeLessThanOrEqual(0.06);
  });

  it('without the re-base: blades unknown after a step forward, no degree-days after a step back (the control)', async () => {
    expect((await stepped(365 * DAY_MS, false)).after.blades_wet).toBeNull();
    await lawn?.stop();
    lawn = undefined;
    temp.cleanup();
    const back = await stepped(-DAY_MS, false);
    expect(back.after.gdd_since_cut).toBe(back.before.gdd_since_cut);
  });
});
