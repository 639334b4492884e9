/**
 * Lawn memory across wall-clock steps (pure): re-based with shiftLawnMemory at the step, a run whose
 * later readings are stamped on the stepped clock ends in the same balance as the run without a step
 * (times moved by the step): no year of drainage, no checkpoints pruned, no readings ignored.
 */
import { describe, expect, it } from 'vitest';
import type { EtWeather } from '../../../src/core/lawn/evaporation.js';
import {
  gddSinceCut,
  initialLawnMemory,
  shiftLawnMemory,
  stepLawnMemory,
  withCut,
  type LawnMemoryState,
} from '../../../src/core/lawn/memory.js';
import { soilProfile } from '../../../src/core/lawn/soilBucket.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const loam = soilProfile('loam', 'cool_season');
const T0 = Date.parse('2026-06-15T08:00:00Z');
const air = (temperatureC: number): EtWeather => ({ temperatureC, humidityPct: 70, windKmh: 8, solarWm2: 300 });

/** A reading every 10 min for two days; rain at 08:50 on each day; the lawn cut at 09:00 on day one. */
const readings = Array.from({ length: 2 * 144 }, (_, i) => ({
  offsetMs: i * 10 * MIN,
  rainMm: i % 144 === 5 ? 3 : 0,
  weather: air(12 + (i % 144) / 12),
}));

function run(stepAt: number, deltaMs: number, shift: boolean): LawnMemoryState {
  let memory = initialLawnMemory(loam);
  readings.forEach((reading, i) => {
    if (i === stepAt && shift) memory = shiftLawnMemory(memory, deltaMs);
    const toMs = T0 + reading.offsetMs + (i >= stepAt ? deltaMs : 0);
    memory = stepLawnMemory(memory, { toMs, rainMm: reading.rainMm, weather: reading.weather }, loam);
    if (i === 6) memory = withCut(memory, toMs);
  });
  return memory;
}

const balance = (state: LawnMemoryState) => ({
  gdd: state.gddTotal,
  soil: state.soilPct,
  blades: state.blades.waterMm,
  unknown: state.bladesUnknown,
  gddSinceCut: gddSinceCut(state),
  checkpoints: state.gddCheckpoints.length,
});

describe('lawn memory across clock steps', () => {
  const steady = run(0, 0, false);

  it.each([
    ['a year forward', 365 * DAY],
    ['a day back', -DAY],
    ['an hour back and some seconds', -(HOUR + 7_000)],
  ])('keeps the balance of the steady run after a step %s', (_name, deltaMs) => {
    const stepped = run(100, deltaMs, true);
    expect(balance(stepped)).toEqual(balance(steady));
    expect(stepped.atMs).toBe(steady.atMs! + deltaMs);
    // Checkpoints moved by whole hours: still on hour starts.
    expect(stepped.gddCheckpoints.every(([ms]) => ms % HOUR === 0)).toBe(true);
  });

  it('without the re-base a step forward loses the blades and the checkpoints, a step back the readings (the control)', () => {
    expect(balance(run(100, 365 * DAY, false))).not.toEqual(balance(steady));
    expect(
      run(100, 365 * DAY, false).bladesUnknown || run(100, 365 * DAY, false).gddCheckpoints.length < steady.gddCheckpoints.length,
    ).toBe(true);
    expect(run(100, -DAY, false).gddTotal).toBeLessThan(steady.gddTotal);
  });

  it('keeps the last cut where it was reported', () => {
    const memory = withCut(run(50, 0, false), T0 + HOUR);
    expect(shiftLawnMemory(memory, DAY).lastCutMs).toBe(T0 + HOUR);
  });
});
