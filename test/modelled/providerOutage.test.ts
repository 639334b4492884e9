/**
 * A location-only setup (a modelled station) while Open-Meteo is unreachable, the full daemon on a
 * fake Open-Meteo on loopback that answers 503, and on a port where nothing listens (connection
 * refused): one cause, said once, everywhere. The state's reason (English and German) is the outage
 * with its local clock time, before the night ban; the page's JSON says the same and does not call
 * the missing fields "not measured by the station"; the lawn summary does not blame a missing
 * humidity sensor; `mowability status` prints the daemon's reason.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { askDaemon, renderStatus } from '../../src/cli/statusReport.js';
import type { RunningDaemon } from '../../src/daemon.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { FakeClock } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { useFakeOpenMeteo } from './fakeModelledServer.js';

/** 21:40 in Berlin on a December evening: the night ban holds too. */
const EVENING = Date.parse('2026-12-15T20:40:00Z');
const HOME = { id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } };
const OUTAGE_EN = 'the weather provider Open-Meteo is unreachable since 21:40, retrying';
const OUTAGE_DE = 'der Wetterdienst Open-Meteo ist seit 21:40 nicht erreichbar, neuer Versuch läuft';

type State = Record<string, unknown> & {
  mowable: boolean;
  mowable_reason: string;
  mowable_reason_de: string;
  modelled: { status: string; message: string };
  lawn?: { summary: string };
};

/** A loopback port where nothing listens (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a modelled station while Open-Meteo is unreachable', () => {
  let daemon: RunningDaemon | undefined;
  const clock = new FakeClock(EVENING);
  const openMeteo = useFakeOpenMeteo(clock, EVENING);

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });

  async function outage(openMeteoUrl: string): Promise<void> {
    daemon = await startOpenMeteoDaemon({
      temp: openMeteo.temp,
      stations: [HOME],
      openMeteoUrl,
      clock,
      env: { MOWABILITY_TIMEZONE: 'Europe/Berlin' },
    });
    const side = daemon.station;
    const state = (): State | undefined => side.stationState('home') as State | undefined;
    await waitUntil(
      () => state()?.modelled.status === 'no_data_provider_unreachable' && state()?.mowable_reason === OUTAGE_EN,
      'the outage in the state',
    );
    const published = state()!;
    expect(published).toMatchObject({ mowable: false, mowable_reason: OUTAGE_EN, mowable_reason_de: OUTAGE_DE });
    expect(published.modelled.message).toBe(`no data yet: ${OUTAGE_EN}`);
    expect(published.lawn?.summary).toBe('Halme: unbekannt, solange keine aktuellen Wetterdaten ankommen');

    const { station: page } = (await (await fetch(`${daemon.httpAddress}/v1/stations/home`)).json()) as {
      station: {
        mowable_reason: string;
        source_message: string;
        source_since: string;
        data_gaps: { not_reported: string[]; not_current: string[] };
      };
    };
    expect(page.mowable_reason).toBe(OUTAGE_EN);
    expect(page.source_message).toBe(`no data yet: ${OUTAGE_EN}`);
    expect(page.source_since).toBe(new Date(EVENING).toISOString());
    expect(page.data_gaps.not_reported).toEqual([]);
    expect(page.data_gaps.not_current).toEqual(expect.arrayContaining(['temperature', 'precipitation_rate']));

    const port = Number(new URL(daemon.httpAddress).port);
    const live = await askDaemon({ http: { host: '127.0.0.1', port, statusPage: 'open' } } as Parameters<typeof askDaemon>[0]);
    expect(live.ok).toBe(true);
    if (!live.ok) return;
    const station = {
      id: 'home',
      name: 'Home',
      format: 'open-meteo',
      last_reading_at: null,
      mowable: null,
      latest: {},
      history_minutes: 0,
      history_since: null,
      uploads_refused: [],
    };
    const { index, status, mowable, mowable_reason, last_reading_at, availability } = live.stations[0]!;
    const text = renderStatus(
      {
        database: 'db',
        database_exists: true,
        stations: [{ ...station, live: { index, status, mowable, mowable_reason, last_reading_at, availability } }],
        unconfigured_with_history: [],
        unmatched_uploads: [],
      },
      clock.now(),
    );
    expect(text).toContain(`mowable:      no (${OUTAGE_EN})`);
    expect(text).toContain('source:       modelled from Open-Meteo, not measured\n');
  }

  it('answering 503', async () => {
    openMeteo.fake.fallback = { kind: 'status', status: 503 };
    await outage(openMeteo.fake.baseUrl);
  }, 30_000);

  it('refusing the connection', async () => {
    await outage(`http://127.0.0.1:${await closedPort()}`);
  }, 30_000);
});
