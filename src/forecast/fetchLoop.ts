/**
 * Fetches one station's Open-Meteo forecast every interval (±10 % jitter, so
 * many daemons do not hit the provider on the same second). The first fetch
 * runs at once unless the cached forecast is younger than one interval. A
 * failed fetch keeps the last good forecast; an outage is logged once when it
 * begins and once when it ends, never per attempt. Nothing here throws: the
 * loop runs off the ingest path on its own timer.
 */
import type { Logger } from 'pino';
import type { StationLocation } from '../ingest/types.js';
import type { CachedForecast } from '../store/forecastStore.js';
import type { FetchOutcome, OpenMeteoClient } from '../openmeteo/openMeteoClient.js';
import { jittered, RepeatingTask } from '../util/repeatingTask.js';

export interface FetchLoopOptions {
  stationId: string;
  location: StationLocation;
  client: Pick<OpenMeteoClient, 'fetchForecast'>;
  intervalMs: number;
  now: () => number;
  random: () => number;
  log: Logger;
  /** The forecast held now (cache or last fetch). */
  current: () => CachedForecast | undefined;
  /** A new forecast (or a confirmation that the old one is still current, with a new fetch time). */
  accept: (forecast: CachedForecast) => Promise<void>;
  onOutcome?: (outcome: FetchOutcome) => void;
}

export class FetchLoop {
  readonly #options: FetchLoopOptions;
  readonly #task: RepeatingTask;
  #failures = 0;

  constructor(options: FetchLoopOptions) {
    this.#options = options;
    this.#task = new RepeatingTask(async () => {
      await this.#tick();
      return jittered(options.intervalMs, options.random);
    });
  }

  start(): void {
    const cached = this.#options.current();
    const age = cached ? this.#options.now() - cached.fetchedAtMs : Infinity;
    // A cache stamped in the future (the clock stepped back since it was fetched) has no known age: fetch at once.
    this.#task.start(age >= 0 && age < this.#options.intervalMs ? this.#options.intervalMs - age : 0);
  }

  async stop(): Promise<void> {
    await this.#task.stop();
  }

  async #tick(): Promise<void> {
    const { stationId, log } = this.#options;
    try {
      const previous = this.#options.current();
      const validators = previous?.source === 'open-meteo' ? previous.validators : {};
      const outcome = await this.#options.client.fetchForecast(this.#options.location, validators, this.#task.signal);
      if (this.#task.signal.aborted) return;
      this.#options.onOutcome?.(outcome);
      if (outcome.kind === 'error') return this.#failed(outcome.reason);
      if (this.#failures > 0)
        log.info(
          { station: stationId, failures: this.#failures },
          `forecast for station ${stationId} available again after ${this.#failures} failed fetch(es)`,
        );
      this.#failures = 0;
      const fetchedAtMs = this.#options.now();
      if (outcome.kind === 'ok')
        await this.#options.accept({ source: 'open-meteo', fetchedAtMs, hours: outcome.hours, validators: outcome.validators });
      else if (previous) await this.#options.accept({ ...previous, fetchedAtMs });
    } catch (err) {
      this.#failed(err instanceof Error ? err.message : String(err));
    }
  }

  #failed(reason: string): void {
    this.#failures++;
    if (this.#failures > 1) return;
    this.#options.log.warn(
      { station: this.#options.stationId, reason },
      `forecast fetch for station ${this.#options.stationId} failed (${reason}); the last good forecast is kept and marked stale after 3 intervals. Check forecast.openMeteoUrl and the network; logged again when it recovers`,
    );
  }
}
