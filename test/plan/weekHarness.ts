/**
 * The whole daemon (src/daemon.ts) with a station of two lawns against the fake Open-Meteo, an injected
 * clock and a real SQLite file: weeks of readings replayed through the pipeline, restarts on the same
 * database, the state's `plan` read back.
 */
import type { LawnPlan } from '../../src/core/plan/types.js';
import type { RunningDaemon } from '../../src/daemon.js';
import type { StationPlanState } from '../../src/lawn/planUnit.js';
import { FakeClock, mqttTempDir, publishOnce, reading, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import type { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { weekForecastBody, type HourWeather } from './weekForecast.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** One station, two lawns: the front one with a quick robot (300 m² at 100 m²/h), the back one with a slow one (300 m² at 25 m²/h) on clay. */
export const garden = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', humidity: 'hum', wind_speed: 'wind', precipitation_rate: 'rate', solar: 'solar' },
  location: { latitude: 48.14, longitude: 11.58, elevation: 520 },
  forecast: { source: 'open-meteo' },
  lawns: [
    { id: 'garden', name: 'Front lawn', areaM2: 300, capacityM2PerHour: 100, targetHeightMm: 40 },
    { id: 'back', name: 'Back lawn', areaM2: 300, capacityM2PerHour: 25, targetHeightMm: 40, lawn: { soilType: 'clay' } },
  ],
};

export class WeekDaemon {
  readonly temp = mqttTempDir();
  readonly clock: FakeClock;
  daemon: RunningDaemon | undefined;

  constructor(
    readonly fake: FakeOpenMeteo,
    startMs: number,
  ) {
    this.clock = new FakeClock(startMs);
  }

  /** Starts the daemon; its forecast is `weatherAt` over seven days from the clock's time (unless the fake's script says otherwise). */
  async start(weatherAt: (hourMs: number) => HourWeather): Promise<RunningDaemon> {
    this.fake.fallback = { kind: 'body', text: weekForecastBody(this.clock.ms, weatherAt) };
    this.daemon = await startOpenMeteoDaemon({
      temp: this.temp,
      stations: [garden],
      openMeteoUrl: this.fake.baseUrl,
      clock: this.clock,
      env: {
        MOWABILITY_TIMEZONE: 'Europe/Berlin',
        MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0',
        MOWABILITY_FORECAST_TIMEOUT_SECONDS: '60',
      },
    });
    return this.daemon;
  }

  async stop(): Promise<void> {
    await this.daemon?.stop();
    this.daemon = undefined;
  }

  async cleanup(): Promise<void> {
    await this.stop();
    this.temp.cleanup();
  }

  get brokerPort(): number {
    const port = this.daemon?.mqtt.brokerPort();
    if (port === undefined) throw new Error('the daemon has no broker');
    return port;
  }

  plan(): StationPlanState | undefined {
    return this.daemon?.station.stationState('garden')?.plan;
  }

  lawnPlan(lawnId: string): LawnPlan | undefined {
    return this.plan()?.lawns[lawnId];
  }

  /** One reading of `weather` at the clock's time. */
  feed(weather: HourWeather): void {
    const outcome = this.daemon!.station.acceptReading(
      'garden',
      reading(
        {
          temperature: weather.temperature,
          humidity: weather.humidity,
          wind_speed: weather.wind,
          precipitation_rate: weather.rainMm,
          solar: weather.solar,
        },
        weather.rainMm / 2,
      ),
      'test',
    );
    if (outcome !== 'accepted' && outcome !== 'duplicate')
      throw new Error(`reading at ${new Date(this.clock.ms).toISOString()} was ${outcome}`);
  }

  /** Readings every 30 minutes from the clock's time for `days`, each at its own time; the clock ends there. */
  async replay(days: number, weatherAt: (ms: number) => HourWeather): Promise<void> {
    const end = this.clock.ms + days * DAY_MS;
    for (; this.clock.ms <= end; this.clock.ms += 30 * 60_000) {
      this.feed(weatherAt(this.clock.ms));
      // Let the debounced recompute run now and then, as it does between readings in production.
      if (this.clock.ms % (6 * HOUR_MS) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.clock.ms = end;
  }

  /** Reports a cut of `lawnId` at the clock's time on `<base>/<lawn>/mowed` and waits until its plan has re-planned from it. */
  async cut(lawnId: string): Promise<void> {
    const atMs = this.clock.ms;
    const runs = () => this.lawnPlan(lawnId)?.computedAtMs;
    await publishOnce(this.brokerPort, `mowability/${lawnId}/mowed`, JSON.stringify({ at: new Date(atMs).toISOString() }), { qos: 1 });
    await waitUntil(() => {
      const plan = this.lawnPlan(lawnId);
      return plan !== undefined && runs() === this.clock.ms && plan.need.heightMm <= plan.need.targetHeightMm + 0.5;
    }, `the plan of ${lawnId} after its cut`).catch((err: unknown) => {
      const state = this.daemon?.station.stationState('garden');
      throw new Error(
        `${String(err)}; stats ${JSON.stringify(this.daemon?.mqtt.stats().units)}; unit errors ${JSON.stringify(state?.unit_errors)}; need ${JSON.stringify(this.lawnPlan(lawnId)?.need)}`,
      );
    });
  }

  /** Waits until every lawn has a plan made at the clock's time over a forecast reaching `days` ahead (a fresh one: seven). */
  async plannedNow(what: string, days = 6.5): Promise<StationPlanState> {
    await waitUntil(
      () => {
        const plan = this.plan();
        return (
          plan !== undefined &&
          garden.lawns.every((lawn) => {
            const lawnPlan = plan.lawns[lawn.id];
            return lawnPlan?.computedAtMs === this.clock.ms && lawnPlan.horizonEndMs >= this.clock.ms + days * DAY_MS;
          })
        );
      },
      what,
      20_000,
    );
    return this.plan()!;
  }
}
