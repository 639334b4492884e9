/**
 * The forecast cache's age across wall-clock steps (a Pi without a real-time clock, then NTP):
 * the age is the time that really passed. A step forward does not make the forecast stale, a
 * step back does not keep an old one fresh, and a cache stamped in the future is never fresh.
 */
import type { ForecastStore } from '../../src/store/forecastStore.js';
import { describe, expect, it } from 'vitest';
import { calculationContext } from '../../src/config/calculationContext.js';
import { loadConfig } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import type { ForecastSettings } from '../../src/config/openMeteoSettings.js';
import { ForecastUnit, type ForecastStation } from '../../src/forecast/forecastUnit.js';
import type { ClockStep } from '../../src/util/clockWatch.js';
import { FakeClock, silentLogger } from '../helpers/mqttHarness.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const garden: ForecastStation = { id: 'garden', config: { source: 'mqtt', topic: 'ha/forecast/garden' } };

function forecastMessage(): Buffer {
  const forecast = Array.from({ length: 48 }, (_, i) => ({
    datetime: new Date(NOW + i * HOUR_MS).toISOString(),
    temperature: 20,
    humidity: 50,
    precipitation: 0,
  }));
  return Buffer.from(JSON.stringify({ forecast }));
}

function setup() {
  const clock = new FakeClock(NOW);
  const config = loadConfig({ env: {}, units: stationUnitConfigs() }) as ReturnType<typeof loadConfig> & { forecast: ForecastSettings };
  const unit = new ForecastUnit({
    stations: [garden],
    settings: config.forecast,
    // Never started here: any use of the database would throw.
    store: new Proxy({} as ForecastStore, {
      get() {
        throw new Error('not started');
      },
    }),
    logger: silentLogger,
    now: () => clock.now(),
    contextFor: (_stationId, nowMs) => calculationContext(config, nowMs),
    userAgent: 'test',
  });
  unit.handleMessage('garden', forecastMessage(), false);
  const step = (deltaMs: number): void => {
    clock.advance(deltaMs);
    const event: ClockStep = { deltaMs, direction: deltaMs > 0 ? 'forward' : 'back', atMs: clock.now() };
    unit.clockStepped(event);
  };
  const detail = () => unit.detail('garden', clock.now())!;
  const staleAfterMs = 3 * config.forecast.intervalMinutes * 60_000;
  return { clock, unit, step, detail, staleAfterMs };
}

describe('forecast cache age across clock steps', () => {
  it('a step forward of a year keeps the age: the forecast stays fresh', () => {
    const { clock, step, detail } = setup();
    clock.advance(10 * 60_000);
    step(365 * DAY_MS);
    expect(detail()).toMatchObject({ stale: false, age_minutes: 10 });
  });

  it('a step back of a day keeps the age, and the forecast still turns stale when it is really old', () => {
    const { clock, step, detail, staleAfterMs } = setup();
    clock.advance(10 * 60_000);
    step(-DAY_MS);
    expect(detail()).toMatchObject({ stale: false, age_minutes: 10 });
    clock.advance(staleAfterMs);
    expect(detail().stale).toBe(true);
  });

  it('a forecast stamped in the future (cached before the clock stepped back, the step not seen) is never fresh', () => {
    const { clock, detail } = setup();
    clock.advance(-DAY_MS);
    expect(detail().stale).toBe(true);
    // Within the tolerance of the history's future readings it is fresh.
    clock.advance(DAY_MS - 60_000);
    expect(detail().stale).toBe(false);
  });
});
