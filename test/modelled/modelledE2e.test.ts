/**
 * A user with only a location, end to end and without the internet: the full daemon
 * (src/daemon.ts) on an empty database, a modelled station and a fake Open-Meteo on loopback.
 * The first answer backfills 14 days of hours through acceptReading, so the published state has
 * an index with every rain window complete, marked as modelled; one request served the station
 * and its forecast. Then the provider goes down at a restart with the clock moved on, comes back,
 * and the missed hours are filled from past hours: no hole in the history.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningDaemon } from '../../src/daemon.js';
import { RETENTION_MINUTES } from '../../src/history/windows.js';
import { FakeClock, RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { rainAt, useFakeOpenMeteo } from './fakeModelledServer.js';

const HOUR_MS = 3_600_000;
/** 10:20 UTC: the backfill reaches back to 00:00 fourteen days ago. */
const NOW = Date.parse('2026-06-15T10:20:00Z');

const HOME = { id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } };

/** The rain the fake reports for the hours after `fromMs` up to `toMs`. */
function expectedRain(fromMs: number, toMs: number): number {
  let sum = 0;
  for (let t = Math.ceil(fromMs / HOUR_MS) * HOUR_MS; t <= toMs; t += HOUR_MS) if (t > fromMs) sum += rainAt(t / 1000);
  return Math.round(sum * 1000) / 1000;
}

type State = Record<string, unknown> & {
  input: Record<string, number>;
  history_coverage: Record<string, number>;
  modelled?: { status: string; message: string };
};

describe('modelled station end to end', () => {
  let daemon: RunningDaemon | undefined;
  let observer: RecordingClient | undefined;
  const clock = new FakeClock(NOW);
  const openMeteo = useFakeOpenMeteo(clock, NOW);

  afterEach(async () => {
    await observer?.close();
    await daemon?.stop();
    observer = daemon = undefined;
  });

  it('publishes an index with complete rain windows from the backfill, marked modelled', async () => {
    daemon = await startOpenMeteoDaemon({
      temp: openMeteo.temp,
      stations: [HOME],
      openMeteoUrl: openMeteo.fake.baseUrl,
      clock,
      env: { MOWABILITY_TIMEZONE: 'Europe/Berlin' },
    });
    const side = daemon.station;
    observer = await RecordingClient.connect(daemon.mqtt.brokerPort()!);
    await observer.client.subscribeAsync('mowability/home/state', { qos: 1 });
    const state = (): State | undefined => observer!.json('mowability/home/state') as State | undefined;
    await waitUntil(
      () => typeof state()?.index_score === 'number' && state()?.input.rain_14d !== undefined,
      'a published index with rain windows',
    );
    const published = state()!;
    expect(published.origin).toBe('modelled');
    expect(published.data_quality).toBe('modelled');
    expect(published.modelled).toMatchObject({ status: 'ok' });
    for (const window of ['rain_1h', 'rain_12h', 'rain_24h', 'rain_14d'])
      expect(published.history_coverage[window]).toBeGreaterThanOrEqual(0.9);
    expect(published.input.rain_14d).toBeCloseTo(expectedRain(NOW - RETENTION_MINUTES * 60_000, NOW), 3);
    expect(published.input.rain_24h).toBeCloseTo(expectedRain(NOW - 24 * HOUR_MS, NOW), 3);
    expect(published.input).toMatchObject({ soil_moisture: 24, wind_gusts: 21, soil_temperature: 15 });
    // One request: the backfill, the current conditions and the forecast.
    expect(openMeteo.fake.requests).toHaveLength(1);
    expect(openMeteo.fake.requests[0]!.url.searchParams.get('past_days')).toBe('14');
    expect(openMeteo.fake.requests[0]!.url.searchParams.get('current')).toContain('temperature_2m');
    await waitUntil(
      () =>
        side.stationState('home')?.forecast !== undefined &&
        (side.stationState('home')!.forecast as { fetched_at: string | null }).fetched_at !== null,
      'the forecast from the same answer',
    );
  });
});
