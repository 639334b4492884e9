/**
 * The Home Assistant adapter against a fake of HA's documented WebSocket API (test/helpers/mowerSimulators.ts):
 * authentication, the state at connect (get_states), pushes (state_changed), call_service with a
 * vendor's start service (Husqvarna's override_schedule), a wrong token, and the token kept out of
 * every log line, the state and the route.
 */
import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { controlConfigOf } from '../../src/mower/controlConfig.js';
import { HomeAssistantMower } from '../../src/mower/homeAssistantMower.js';
import { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import { FakeHomeAssistant } from '../helpers/mowerSimulators.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';
import { waitUntil } from '../helpers/wait.js';
import { unitRoutesPlugin } from '../../src/http/unitRoutes.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.secret-long-lived-token.abc123';
const T0 = Date.parse('2026-06-15T08:00:00Z');

describe('Home Assistant mower (WebSocket API)', () => {
  const temp = useTempDatabase();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function fakeHa(): Promise<FakeHomeAssistant> {
    const ha = await FakeHomeAssistant.start(TOKEN);
    cleanups.push(() => ha.stop());
    return ha;
  }

  function capture(): { log: pino.Logger; lines: string[] } {
    const lines: string[] = [];
    return { lines, log: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }) };
  }

  it('a wrong token: auth_invalid, a problem that says so, no reconnect storm, no token anywhere', async () => {
    const ha = await fakeHa();
    const { log, lines } = capture();
    const mower = new HomeAssistantMower(
      { url: ha.url, entity: 'lawn_mower.robbi', startService: 'lawn_mower.start_mowing', startData: {} },
      'wrong-token',
      log,
    );
    cleanups.push(() => mower.close());
    await mower.open();
    await waitUntil(() => mower.problem()?.includes('auth_invalid') === true, 'the refusal is reported');
    await expect(mower.send('start')).rejects.toThrow('not connected to Home Assistant');
    expect(ha.authAttempts).toEqual(['wrong-token']);
    expect(lines.join('\n')).not.toContain('wrong-token');
  });

  it('drives a Husqvarna through override_schedule, confirmed by the state_changed push; the token stays secret', async () => {
    const ha = await fakeHa();
    const { log, lines } = capture();
    const control = controlConfigOf(
      {
        enabled: true,
        dryRun: false,
        kind: 'homeassistant',
        runMinutes: 90,
        homeassistant: {
          url: ha.url,
          entity: 'lawn_mower.robbi',
          startService: 'husqvarna_automower.override_schedule',
          startData: { override_mode: 'mow', duration: { minutes: 90 } },
        },
      },
      'garden',
    );
    const unit = new MowerControlUnit({
      lawns: [{ id: 'garden', control }],
      settings: { tickSeconds: 600, homeAssistantToken: TOKEN },
      store: new MowerRunStore(temp.db),
      log,
      clock: { now: () => T0 },
      baseTopic: 'mowability',
      timeZone: 'UTC',
      recordCut: () => true,
      quietHours: undefined,
    });
    // The pipeline's part: the station's dry state reaches the unit through onState, its input.
    unit.onState('garden', {
      index_score: 88,
      main_status: 'OK',
      mowable: true,
      input: { precipitation_rate: 0 },
      last_reading_at: new Date(T0 - 60_000).toISOString(),
      forecast: { stale: false, mowable_for_minutes: 240, rain_expected_in_minutes: null },
    } as never);
    await unit.start();
    cleanups.push(() => unit.stop());
    const controller = unit.controller('garden')!;
    // The first report (get_states: docked) is decided at once: the start may follow before a poll sees "docked".
    await waitUntil(() => controller.status(T0).activity !== 'unknown', 'the state from get_states');
    await unit.tickAll();
    await waitUntil(() => controller.runs().at(-1)?.startedBy === 'daemon', 'the start confirmed by the push');
    expect(ha.serviceCalls).toEqual([
      {
        domain: 'husqvarna_automower',
        service: 'override_schedule',
        service_data: { override_mode: 'mow', duration: { minutes: 90 } },
        target: { entity_id: 'lawn_mower.robbi' },
      },
    ]);
    await controller.dockNow();
    await waitUntil(() => controller.runs().at(-1)?.outcome === 'docked_by_user', 'dock through lawn_mower.dock, in the ledger');
    expect(ha.serviceCalls.at(-1)).toMatchObject({ domain: 'lawn_mower', service: 'dock' });

    // The secret appears in no log line, not in the state, not on the route.
    const app = Fastify();
    await app.register(unitRoutesPlugin(unit.routes), { prefix: '/v1' });
    const route = await app.inject({ method: 'GET', url: '/v1/stations/garden/mower' });
    await app.close();
    expect(route.statusCode).toBe(200);
    expect(route.json()).toMatchObject({ status: 'ok', station: 'garden', runs: [{ started_by: 'daemon', outcome: 'docked_by_user' }] });
    const everything = [lines.join('\n'), route.body, JSON.stringify(unit.stateFragment('garden', T0))].join('\n');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('secret-long-lived-token');
  });

  it('a slow answer or a lost command is confirmed late or retried through the controller, never twice at once', async () => {
    const ha = await fakeHa();
    ha.model.slow = true;
    const mower = new HomeAssistantMower(
      { url: ha.url, entity: 'lawn_mower.robbi', startService: 'lawn_mower.start_mowing', startData: {} },
      TOKEN,
      pino({ level: 'silent' }),
    );
    cleanups.push(() => mower.close());
    const seen: string[] = [];
    mower.onActivity((activity) => seen.push(activity));
    await mower.open();
    await waitUntil(() => seen.includes('docked'), 'connected');
    await mower.send('start');
    expect(mower.activity()).toBe('docked');
    ha.model.progress();
    await waitUntil(() => mower.activity() === 'mowing', 'the slow mower mows');
    ha.model.set('error');
    await waitUntil(() => mower.activity() === 'error', 'the error is pushed');
  });
});
