/**
 * The last cut: from the `mowability/<station>/mowed` command topic (a mower cutting at 10:00), from the
 * `mowability mowed` CLI (picked up by the running daemon from the database), and growth since then; a
 * 3-day wet spell on an overdue lawn ends in WARNING with K-State's advice, never OK while it rains; the
 * lawn entities pass Home Assistant's discovery rules.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OVERGROWTH_REASON } from '../../src/core/lawnWetness.js';
import { plainReason } from '../../src/core/reasonText.js';
import { haDiscoveryViolations } from '../helpers/haRules.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { FakeClock, RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { garden, replay, type Weather } from './lawnHarness.js';
import { lawnDaemonPerTest } from '../helpers/lawnReplay.js';

const mild: Weather = { temperature: 17, humidity: 60, wind_speed: 8, solar: 400 };

describe('lawn memory: cuts and growth', () => {
  const lawns = lawnDaemonPerTest();
  let observer: RecordingClient | undefined;
  afterEach(async () => {
    await observer?.close();
    observer = undefined;
  });

  it("a mower reports a cut at 10:00 on the mowed topic; growth counts from then; the entities pass HA's rules", async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T06:00:00Z'));
    const lawn = await lawns.start(clock);
    observer = await RecordingClient.connect(lawn.daemon.port);
    await observer.client.subscribeAsync(['mowability/garden/state', 'homeassistant/+/+/config'], { qos: 1 });
    replay(lawn, clock, '2026-06-15T06:00:00Z', '2026-06-15T10:20:00Z', () => mild);
    expect(lawn.state()!.lawn).toMatchObject({ last_cut_at: null, mow_need: null, gdd_since_cut: null });

    // Garbage is refused; so is a retained message without a time, as the broker replays it on subscribe
    // (it says nothing about when the lawn was cut).
    await observer.client.publishAsync('mowability/garden/mowed', 'yesterday-ish', { qos: 1 });
    expect(lawn.unit.handleMowed('garden', Buffer.from('now'), true)).toBe(false);
    await observer.client.publishAsync('mowability/garden/mowed', '{"at": "2026-06-15T10:00:00Z", "source": "robot"}', { qos: 1 });
    await waitUntil(
      () =>
        (observer!.json('mowability/garden/state')?.lawn as Record<string, unknown> | undefined)?.last_cut_at ===
        '2026-06-15T10:00:00.000Z',
      'the cut in the published state',
    );
    expect(lawn.daemon.service.stats().units.lawn).toMatchObject({ lawnCutsReceived: 3, lawnCutsRejected: 2 });
    // Two 10-minute steps since 10:00 at 17 °C: (17 − 5) · (20/60) / 24 = 0.17 degree-days.
    expect(lawn.state()!.lawn).toMatchObject({ last_cut_source: 'robot', mow_need: 0, gdd_since_cut: 0.2 });

    replay(lawn, clock, '2026-06-15T10:30:00Z', '2026-06-15T22:00:00Z', () => mild);
    // 12 h at 17 °C: 12 · 12/24 = 6 degree-days; 6 · 0.04 cm = 0.24 cm of a 2 cm allowance at a 4 cm cut.
    expect(lawn.state()!.lawn).toMatchObject({ gdd_since_cut: 6, grass_growth_cm: 0.2, mow_need: 12 });
    expect(lawn.state()!.input).toMatchObject({ mow_need: 12 });

    await waitUntil(
      () => observer!.json('homeassistant/binary_sensor/mowability_garden_drought/config') !== undefined,
      'the lawn entities',
    );
    for (const key of [
      'sensor/mowability_garden_mow_need',
      'sensor/mowability_garden_last_cut',
      'binary_sensor/mowability_garden_blades_wet',
      'binary_sensor/mowability_garden_drought',
    ]) {
      const topic = `homeassistant/${key}/config`;
      const payload = observer.json(topic);
      expect(payload, topic).toBeDefined();
      expect(haDiscoveryViolations(topic, payload!)).toEqual([]);
    }
    expect(observer.json('homeassistant/binary_sensor/mowability_garden_blades_wet/config')).toMatchObject({ device_class: 'moisture' });
    expect(observer.json('homeassistant/binary_sensor/mowability_garden_drought/config')).toMatchObject({ device_class: 'problem' });
    expect(observer.json('homeassistant/sensor/mowability_garden_last_cut/config')).toMatchObject({ device_class: 'timestamp' });
  });

  it("a 3-day wet spell on an overdue lawn: BLOCK while it rains, WARNING with K-State's advice once it stops", async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T10:00:00Z'));
    const lawn = await lawns.start(clock);
    replay(lawn, clock, '2026-06-15T10:00:00Z', '2026-06-15T10:00:00Z', () => mild);
    expect(lawn.unit.handleMowed('garden', Buffer.from(''), false)).toBe(true);
    const drizzle = (at: number): Weather => {
      const hour = new Date(at).getUTCHours();
      return { temperature: 20, humidity: 97, wind_speed: 4, solar: hour >= 4 && hour < 19 ? 60 : 0, rainMm: 0.1 };
    };
    const statuses = new Set<string>();
    for (let day = 0; day < 3; day++) {
      const from = Date.parse('2026-06-15T10:10:00Z') + day * 86_400_000;
      replay(lawn, clock, new Date(from).toISOString(), new Date(from + 86_400_000 - 600_000).toISOString(), drizzle);
      statuses.add(lawn.state()!.main_status as string);
      expect(lawn.state()!.mowable).toBe(false);
    }
    expect([...statuses]).toEqual(['BLOCK']);
    // 72 h at 20 °C: 72 · 15/24 = 45 degree-days = 1.8 cm of a 2 cm allowance: mow need 90.
    expect(lawn.state()!.lawn).toMatchObject({ mow_need: 90, blades_wet: true });
    expect(lawn.state()!.lawn.wet_spell_hours).toBeGreaterThanOrEqual(71);

    // The rain stops after 10:00 on the fourth day; grey, saturated air keeps the blades wet.
    replay(lawn, clock, '2026-06-18T10:10:00Z', '2026-06-18T10:30:00Z', (at) => ({ ...drizzle(at), rainMm: 0 }));
    expect(lawn.state()).toMatchObject({ main_status: 'WARNING', index_score: 40, mowable: false });
    expect((lawn.state()!.checks as { rain: { reasons: string[] } }).rain.reasons).toContain(plainReason(OVERGROWTH_REASON));
  });

  it('`mowability mowed STATION --at TIME` writes the cut; the running daemon picks it up from the database', async () => {
    const clock = new FakeClock(Date.now());
    const lawn = await lawns.start(clock, { pollIntervalMs: 100 });
    replay(lawn, clock, new Date(clock.now()).toISOString(), new Date(clock.now()).toISOString(), () => mild);
    const configFile = join(lawns.dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ db: { path: lawns.dbPath }, stations: [garden] }));
    const at = new Date(Math.floor(clock.now() / 1000) * 1000 - 3_600_000).toISOString();

    const refused = await runCliInProcess(['mowed', 'orchard', '--config', configFile], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unknown station "orchard" \(configured: garden\)/);
    const future = await runCliInProcess(
      ['mowed', 'garden', '--at', new Date(clock.now() + 86_400_000).toISOString(), '--config', configFile],
      {},
    );
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/--at: the time is in the future/);

    const result = await runCliInProcess(['mowed', 'garden', '--at', at, '--config', configFile], {});
    expect(result.stdout).toMatch(/^Recorded a cut of "garden"/);
    expect(result.code).toBe(0);
    await waitUntil(() => lawn!.state()?.lawn?.last_cut_at === at, "the daemon picks up the CLI's cut");
    expect(lawn.state()!.lawn.last_cut_source).toBe('cli');
  });
});
