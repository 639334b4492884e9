/**
 * MQTT fuzz: hostile station payloads for every station format, published
 * with a real mqtt.js client through the daemon's real embedded aedes
 * broker into the real MQTT service on a temp SQLite file. No crash, no
 * unhandled rejection, every message accounted for, rejected readings
 * counted and never written, stored values always plausible.
 */
import fc from 'fast-check';
import type { MqttClient } from 'mqtt';
import { describe, expect } from 'vitest';
import { FIELD_SPECS } from '../../src/core/index.js';
import { mqttTest as it, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import type { FakeClock } from '../helpers/mqttHarness.js';
import { publishOnce, testMqttConfig, waitUntil, type RunningDaemon } from '../helpers/mqttHarness.js';
import { FUZZ_STATIONS, certainlyRejected, hostileMessage, type FuzzMessage } from '../helpers/robustnessMqtt.js';

const GENERATED = 1500;
const RANGES = new Map<string, { min: number; max: number }>(FIELD_SPECS.map((spec) => [spec.name, spec]));

/** A probe per station topic: each reaches exactly one station. */
const PROBE_TOPICS = ['fuzz/rtl/events', 'fuzz/eco', 'fuzz/weewx/loop', 'fuzz/diy', 'fuzz/plain/probe'];

/**
 * Waits until the daemon's subscriptions to every station topic deliver. A retained probe per
 * topic reaches the daemon exactly once, live or replayed when its subscription starts; once all
 * arrived, every subscription is active, and deleting the probes (delivered live) leaves the
 * broker clean and the counts settled: no probe can trickle into a later test's counts.
 */
async function subscribed(daemon: RunningDaemon, publisher: MqttClient): Promise<void> {
  await waitUntil(() => daemon.service.stats().connected, 'the daemon connected to its broker');
  const before = daemon.service.stats().received;
  for (const topic of PROBE_TOPICS) await publisher.publishAsync(topic, '12.5', { qos: 1, retain: true });
  await waitUntil(() => daemon.service.stats().received === before + PROBE_TOPICS.length, 'every station subscription delivering');
  for (const topic of PROBE_TOPICS) await publisher.publishAsync(topic, '', { qos: 1, retain: true });
  await waitUntil(() => daemon.service.stats().received === before + 2 * PROBE_TOPICS.length, 'the probe deletes delivered');
}

interface FuzzDaemon {
  daemon: RunningDaemon;
  publisher: MqttClient;
  /** Unhandled rejections and uncaught exceptions while the test ran. */
  problems: unknown[];
}

async function startFuzzDaemon(fixture: MqttDaemonFixture, clientId: string): Promise<FuzzDaemon> {
  const problems: unknown[] = [];
  const onProblem = (err: unknown): void => {
    problems.push(err);
  };
  process.on('unhandledRejection', onProblem);
  process.on('uncaughtException', onProblem);
  fixture.defer(() => {
    process.off('unhandledRejection', onProblem);
    process.off('uncaughtException', onProblem);
  });
  const daemon = await fixture.start(testMqttConfig({ stations: FUZZ_STATIONS, history: { flushIntervalSeconds: 1 } }));
  const publisher = (await fixture.connect(daemon.port, { clientId })).client;
  await subscribed(daemon, publisher);
  return { daemon, publisher, problems };
}

describe('MQTT fuzz through the embedded broker', () => {
  // The daemon's fake clock: the generated timestamps are relative to it.
  let clock: FakeClock;
  let daemon: RunningDaemon;
  let publisher: MqttClient;
  let problems: unknown[];

  async function start(fixture: MqttDaemonFixture): Promise<void> {
    clock = fixture.clock;
    ({ daemon, publisher, problems } = await startFuzzDaemon(fixture, 'fuzz-publisher'));
  }

  async function publishAll(messages: readonly FuzzMessage[]): Promise<void> {
    for (const message of messages) await publisher.publishAsync(message.topic, message.payload, { qos: 1 });
  }

  /** Rows in the history tables (all stations). */
  async function historyRowCount(): Promise<number> {
    let total = 0;
    for (const table of ['history_buckets', 'history_counters', 'history_latest']) {
      const row = await daemon.database.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`);
      total += row?.n ?? 0;
    }
    return total;
  }

  it('rejects and counts payloads no station can use, and writes nothing for them', async ({ mqtt }) => {
    await start(mqtt);
    const messages = certainlyRejected(clock.now());
    await daemon.service.flush();
    const rowsBefore = await historyRowCount();
    const before = daemon.service.stats();
    await publishAll(messages);
    await waitUntil(() => daemon.service.stats().received - before.received === messages.length, `${messages.length} messages handled`);
    await daemon.service.flush();
    const after = daemon.service.stats();
    expect(after.rejected - before.rejected, JSON.stringify(after)).toBe(messages.length);
    expect(after.accepted - before.accepted).toBe(0);
    expect(await historyRowCount()).toBe(rowsBefore);
    expect(problems).toEqual([]);
  });

  it('refuses oversized payloads and over-deep topics at the broker without harming the daemon', async ({ mqtt }) => {
    await start(mqtt);
    const before = daemon.service.stats();
    await publishOnce(
      daemon.port,
      'fuzz/diy',
      JSON.stringify({ t: 18, r: 0, pad: 'x'.repeat(70_000), ts: Math.floor(clock.now() / 1000) }),
      { qos: 1 },
    );
    await publishOnce(daemon.port, `fuzz/${'a/'.repeat(40)}x`, '{"t":18}', { qos: 1 });
    await waitUntil(
      () => daemon.service.stats().brokerRejectedPublishes > before.brokerRejectedPublishes,
      'the broker refusing the oversized publish',
    );
    const after = daemon.service.stats();
    expect(after.accepted).toBe(before.accepted);
    expect(after.connected).toBe(true);
    expect(problems).toEqual([]);
  });

  it(`survives ${GENERATED} generated hostile messages across all formats: every message accounted for, stored values plausible`, async ({
    mqtt,
  }) => {
    await start(mqtt);
    const messages = fc.sample(hostileMessage(clock.now()), { numRuns: GENERATED, seed: 4242 });
    const before = daemon.service.stats();
    await publishAll(messages);
    await waitUntil(
      () => daemon.service.stats().received - before.received === messages.length,
      `${messages.length} generated messages handled`,
      20_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(daemon.service.stats())}, before: ${JSON.stringify(before)}`);
    });
    await daemon.service.flush();
    const after = daemon.service.stats();
    const delta = (key: 'received' | 'accepted' | 'rejected' | 'ignored' | 'duplicates'): number => after[key] - before[key];
    expect(delta('accepted') + delta('rejected') + delta('ignored') + delta('duplicates'), JSON.stringify(after)).toBe(delta('received'));
    // The mix must really contain both outcomes, or it tests nothing.
    expect(delta('rejected')).toBeGreaterThan(GENERATED / 10);
    expect(delta('accepted')).toBeGreaterThan(0);

    const latest = await daemon.database.all<{ station: string; field: string; value: number; at_ms: number }>(
      'SELECT station, field, value, at_ms FROM history_latest',
    );
    for (const row of latest) {
      const range = RANGES.get(row.field);
      expect(Number.isFinite(row.value), `${row.station}.${row.field}`).toBe(true);
      if (range) {
        expect(row.value, `${row.station}.${row.field}`).toBeGreaterThanOrEqual(range.min);
        expect(row.value, `${row.station}.${row.field}`).toBeLessThanOrEqual(range.max);
      }
      // Nothing from the far future; the tolerated skew is two minutes.
      expect(row.at_ms).toBeLessThanOrEqual(clock.now() + 2 * 60_000);
    }
    const buckets = await daemon.database.all<{ rain_mm: number; temp_min_c: number | null; minute: number }>(
      'SELECT rain_mm, temp_min_c, minute FROM history_buckets',
    );
    for (const bucket of buckets) {
      expect(bucket.rain_mm).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(bucket.rain_mm)).toBe(true);
      if (bucket.temp_min_c !== null) {
        expect(bucket.temp_min_c).toBeGreaterThanOrEqual(-60);
        expect(bucket.temp_min_c).toBeLessThanOrEqual(60);
      }
    }
    const counters = await daemon.database.all<{ total_mm: number }>('SELECT total_mm FROM history_counters');
    for (const counter of counters) expect(counter.total_mm).toBeGreaterThanOrEqual(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it('keeps the newest value when an older reading arrives out of order, and still serves valid readings', async ({ mqtt }) => {
    await start(mqtt);
    // Ten minutes on: "newer" is the newest the station sent, also against readings up to the tolerated skew.
    clock.advance(10 * 60_000);
    const nowS = Math.floor(clock.now() / 1000);
    await publishAll([
      { topic: 'fuzz/diy', payload: JSON.stringify({ t: 21.5, r: 0, ts: nowS - 30 }), kind: 'newer' },
      { topic: 'fuzz/diy', payload: JSON.stringify({ t: 3.5, r: 0, ts: nowS - 600 }), kind: 'older' },
    ]);
    await waitUntil(async () => {
      await daemon.service.flush();
      const row = await daemon.database.get<{ value: number }>(
        "SELECT value FROM history_latest WHERE station = 'diy' AND field = 'temperature'",
      );
      return row?.value === 21.5;
    }, 'the newer temperature stored');
    const row = await daemon.database.get<{ value: number; at_ms: number }>(
      "SELECT value, at_ms FROM history_latest WHERE station = 'diy' AND field = 'temperature'",
    );
    expect(row).toEqual({ value: 21.5, at_ms: (nowS - 30) * 1000 });
    expect(daemon.service.stats().connected).toBe(true);
    expect(problems).toEqual([]);
  });
});

describe('a station topic with an empty level on the embedded broker', () => {
  // Regression: with aedes 1.2, a QoS 1 publish whose topic has an empty level matched by a "+"
  // of a persistent-session (clean: false) subscription ("fuzz/plain/" for "fuzz/plain/+",
  // "rtl_433//events" for "rtl_433/+/events") failed with "no such packet" and dropped the
  // daemon's connection, losing readings until it reconnected. Any broker client could do it.
  it('keeps the daemon connected and handling readings after a publish to "fuzz/plain/"', async ({ mqtt }) => {
    const { daemon, publisher } = await startFuzzDaemon(mqtt, 'empty-level-publisher');
    const observer = (await mqtt.connect(daemon.port)).client;
    const announcements: string[] = [];
    let diyState: { input?: { temperature?: number } } | undefined;
    observer.on('message', (topic, payload) => {
      if (topic === 'mowability/bridge/state') announcements.push(payload.toString());
      if (topic === 'mowability/diy/state') diyState = JSON.parse(payload.toString()) as typeof diyState;
    });
    await observer.subscribeAsync(['mowability/bridge/state', 'mowability/diy/state'], { qos: 1 });
    await waitUntil(() => announcements.length === 1, 'the retained bridge state');
    const before = daemon.service.stats().received;
    await publisher.publishAsync('fuzz/plain/', '7', { qos: 1 });
    await publisher.publishAsync('fuzz/diy', JSON.stringify({ t: 19, r: 0, ts: Math.floor(mqtt.clock.now() / 1000) }), { qos: 1 });
    // Both messages reach the daemon (the first is ignored: no field).
    await waitUntil(() => daemon.service.stats().received - before === 2, 'both messages handled', 3000);
    // The bug closed the daemon's connection when the broker handled its PUBACK for the first
    // message; the broker then publishes the daemon's Last Will ("offline") at once. The state
    // for the second reading is sent on that connection after both PUBACKs, so once it is here,
    // a drop would have shown as "offline" before it.
    await waitUntil(() => diyState?.input?.temperature === 19, 'the state of the second reading');
    expect(announcements, 'the daemon lost its connection (Last Will) or re-announced itself').toEqual(['online']);
  });
});
