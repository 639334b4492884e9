/**
 * The week plan learns a lawn's minutes per full cut from the mower control's runs, which reach it
 * only through the mower control module's read-only offer (wired in src/daemon.ts), never by reading
 * the mower's table: the whole daemon on a database that holds completed runs of one lawn (the control
 * is off now: an earlier season's runs still count), a lawn without them on the default.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningDaemon } from '../../src/daemon.js';
import type { StationPlanState } from '../../src/lawn/planUnit.js';
import { Database } from '../../src/store/database.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { FakeClock, mqttTempDir, reading, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { dryHour, weekForecastBody } from './weekForecast.js';
import { garden as weekGarden } from './weekHarness.js';

const MONDAY = Date.parse('2026-06-15T04:00:00Z');
const HOUR_MS = 3_600_000;
const done = { en: 'the run is done', de: 'Der Lauf ist fertig' };
/** Two lawns without an area: the back one's mower has completed runs, the front one's none. */
const garden = {
  ...weekGarden,
  lawns: [
    { id: 'garden', name: 'Front lawn', targetHeightMm: 40 },
    { id: 'back', name: 'Back lawn', targetHeightMm: 40 },
  ],
};

describe('the week plan and the mower control runs', () => {
  const temp = mqttTempDir();
  let fake: FakeOpenMeteo;
  let daemon: RunningDaemon | undefined;
  beforeEach(async () => {
    fake = await FakeOpenMeteo.start();
  });
  afterEach(async () => {
    await daemon?.stop();
    await fake.close();
    temp.cleanup();
  });

  it("takes a lawn's minutes per full cut from its completed runs", async () => {
    const database = await Database.open(temp.dbPath);
    const runs = new MowerRunStore(database);
    for (const [startMs, minutes] of [
      [MONDAY - 72 * HOUR_MS, 50],
      [MONDAY - 48 * HOUR_MS, 70],
      [MONDAY - 24 * HOUR_MS, 60],
    ] as const) {
      const id = await runs.openRun({ lawn: 'back', station: 'garden', startedBy: 'daemon', startMs });
      await runs.closeRun(id, { endMs: startMs + HOUR_MS, mowingMinutes: minutes, outcome: 'completed', reason: done });
    }
    await database.close();

    const clock = new FakeClock(MONDAY);
    fake.fallback = { kind: 'body', text: weekForecastBody(clock.ms, dryHour) };
    daemon = await startOpenMeteoDaemon({
      temp,
      stations: [garden],
      openMeteoUrl: fake.baseUrl,
      clock,
      env: {
        MOWABILITY_TIMEZONE: 'Europe/Berlin',
        MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0',
        MOWABILITY_FORECAST_TIMEOUT_SECONDS: '60',
      },
    });
    const weather = dryHour(clock.ms);
    const values = { temperature: weather.temperature, humidity: weather.humidity, wind_speed: weather.wind, solar: weather.solar };
    expect(daemon.station.acceptReading('garden', reading(values), 'test')).toBe('accepted');
    const plan = (): StationPlanState | undefined => daemon?.station.stationState('garden')?.plan;
    await waitUntil(() => plan()?.lawns.back !== undefined && plan()?.lawns.garden !== undefined, 'both lawns planned', 20_000);
    // The median of the three completed runs; the front lawn's mower has none.
    expect(plan()!.lawns.back!.need).toMatchObject({ minutesPerFullCut: 60, capacitySource: 'ledger' });
    expect(plan()!.lawns.garden!.need.capacitySource).toBe('default');
  });
});
