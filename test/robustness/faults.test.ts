/**
 * Faults around the built daemon (dist/cli/main.js, built by `npm test`
 * before vitest runs): a database that turns corrupt under it and comes
 * back, a file that is not a database, SIGKILL and SIGTERM with readings in
 * flight; and an external broker (Debian mosquitto) killed mid-stream.
 * Where the MQTT tests (test/mqtt/externalBroker.test.ts) already cover a
 * graceful broker restart without loss, this file adds the reconnect bound
 * with the shipped back-off (60 s cap) and the SIGKILL case.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_MESSAGES } from '../../src/http/healthRoute.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { clientIdFor } from '../../src/mqtt/settings.js';
import { runBuiltCli } from '../helpers/httpCli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { RecordingClient, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { mosquittoAvailable, MOSQUITTO_BINARY } from '../../bench/lib/mosquitto.js';
import { OtherConnection, brokerPortOf, corruptTablePage, queryReadOnly } from '../helpers/robustnessProcess.js';

const DIY: StationConfig = {
  id: 'diy',
  name: 'DIY',
  format: 'json',
  topic: 'diy/weather',
  fields: { temperature: 't', precipitation_rate: 'r' },
  timestampKey: 'ts',
};

interface Envelope {
  status: string;
  mfi: { checks?: { database?: { status: string; message?: string } } } | null;
  message: string;
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: Envelope }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Envelope };
}

describe('the daemon process under faults', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let daemon: DaemonProcess | undefined;
  const clients: RecordingClient[] = [];

  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    if (daemon && daemon.child.exitCode === null) await daemon.stop('SIGKILL');
    daemon = undefined;
    temp.cleanup();
  });

  it('reports a database that turns corrupt as 503 "error" (the SQLite message in the log, not in health), keeps calculating, and recovers when the pages are back', async () => {
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_LOG_LEVEL: 'warn' };
    const added = await runBuiltCli(['keys', 'add', 'faults', '--json'], env);
    const { key } = JSON.parse(added.stdout) as { key: string };
    daemon = await startDaemonProcess({ ...env, MOWABILITY_LOG_LEVEL: 'info' });
    const { baseUrl } = daemon;
    const calculate = () =>
      getJson(`${baseUrl}/v1/calculate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ temperature: 18, precipitation_rate: 0 }),
      });
    expect((await getJson(`${baseUrl}/health`)).status).toBe(200);

    const other = await OtherConnection.open(temp.dbPath);
    try {
      const page = await corruptTablePage(temp.dbPath, other, 'settings');
      // Another process commits: every connection, the daemon's included, must read from the file again.
      await other.all("INSERT INTO blocked_addresses (cidr, created_at) VALUES ('192.0.2.1/32', 'now')");
      // Health runs its checks at most once per http.healthCacheMs (1 s): the fault shows within that.
      await waitFor(async () => (await getJson(`${baseUrl}/health`)).status === 503, 5000);
      const broken = await getJson(`${baseUrl}/health`);
      expect(broken.status).toBe(503);
      expect(broken.body).toMatchObject({
        status: 'error',
        message: 'One or more system checks failed.',
        mfi: { checks: { database: { status: 'error' } } },
      });
      expect(broken.body.mfi?.checks?.database?.message).toBe(DATABASE_MESSAGES.queryFailed);
      expect(daemon.output()).toMatch(/health: database query failed: .*(SQLITE_CORRUPT|malformed)/);
      const duringFault = await calculate();
      // Either it keeps answering (keys are cached) or it fails with a clear envelope; never a crash or a 5xx without one.
      if (duringFault.status === 200) expect(duringFault.body.status).toBe('ok');
      else {
        expect(duringFault.body).toMatchObject({ status: 'error', mfi: null });
        expect(duringFault.body.message).toMatch(/\S/);
      }

      page.restore();
      await other.all("DELETE FROM blocked_addresses WHERE cidr = '192.0.2.1/32'");
      await waitFor(async () => (await getJson(`${baseUrl}/health`)).status === 200, 5000);
      expect((await getJson(`${baseUrl}/health`)).body).toMatchObject({ status: 'ok', mfi: { checks: { database: { status: 'ok' } } } });
      expect((await calculate()).status).toBe(200);
    } finally {
      await other.close();
    }
    expect(daemon.child.exitCode).toBeNull();
    expect(await daemon.stop('SIGTERM')).toBe(0);
  });

  it('refuses to start on a file that is not a database: non-zero exit and a message that says so', async () => {
    writeFileSync(temp.dbPath, Buffer.alloc(8192, 0x5a));
    const result = await runBuiltCli(['serve'], {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_ENABLED: 'false',
    });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}\n${result.stderr}`).toMatch(/not a database/);
  });

  /** Starts the daemon with the embedded broker and the DIY station; returns its broker port. */
  async function startWithStation(): Promise<number> {
    const configPath = join(temp.dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ stations: [DIY] }));
    daemon = await startDaemonProcess({
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_CONFIG: configPath,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_BROKER_ENABLED: 'true',
      MOWABILITY_BROKER_PORT: '0',
      // A short flush (the default is 300 s) so batch A is committed while the test waits.
      MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: '5',
    });
    const port = await brokerPortOf(daemon);
    // Readings sent before the daemon's own client has subscribed would go nowhere.
    const running = daemon;
    await waitFor(() => running.logLines().some((line) => line.msg === 'connected to MQTT broker'), 10_000);
    return port;
  }

  /** Temperatures of the DIY station's minute buckets, oldest first, read from the file by another process. */
  async function storedTemperatures(): Promise<number[]> {
    const rows = await queryReadOnly<{ temp_min_c: number }>(
      temp.dbPath,
      "SELECT temp_min_c FROM history_buckets WHERE station = 'diy' ORDER BY minute",
    );
    return rows.map((row) => row.temp_min_c);
  }

  /** One reading per minute, `count` of them, ending `endMinutesAgo` minutes ago, temperatures first, first+1, … */
  function readings(count: number, endMinutesAgo: number, firstTemperature: number): string[] {
    const nowS = Math.floor(Date.now() / 1000);
    return Array.from({ length: count }, (_, i) =>
      JSON.stringify({ t: firstTemperature + i, r: 0, ts: nowS - (endMinutesAgo + count - 1 - i) * 60 }),
    );
  }

  /** Publishes a batch A, waits until it is committed, publishes batch B and waits until the daemon has ingested it. */
  async function twoBatches(brokerPort: number, a: string[], b: string[]): Promise<void> {
    const station = await RecordingClient.connect(brokerPort);
    const observer = await RecordingClient.connect(brokerPort);
    clients.push(station, observer);
    await observer.client.subscribeAsync('mowability/diy/state', { qos: 1 });
    for (const payload of a) await station.client.publishAsync('diy/weather', payload, { qos: 1 });
    let lastSeen: unknown = [];
    await waitFor(async () => {
      lastSeen = await storedTemperatures().catch((err: Error) => err.message);
      return Array.isArray(lastSeen) && lastSeen.length === a.length;
    }, 15_000).catch((err: Error) => {
      throw new Error(`${err.message}: batch A not committed; last read: ${JSON.stringify(lastSeen)}`);
    });
    for (const payload of b) await station.client.publishAsync('diy/weather', payload, { qos: 1 });
    const lastTemperature = (JSON.parse(b[b.length - 1] as string) as { t: number }).t;
    await waitFor(
      () => (observer.json('mowability/diy/state')?.input as { temperature?: number } | undefined)?.temperature === lastTemperature,
      10_000,
    );
  }

  it('SIGKILL: after a restart the history is back, at most the last unflushed batch is missing', async () => {
    const a = readings(20, 30, 1);
    const b = readings(5, 2, 40);
    await twoBatches(await startWithStation(), a, b);
    // Batch B is ingested but (flush interval 5 s) most likely not yet written.
    expect(await daemon!.stop('SIGKILL')).toBeNull();

    await startWithStation();
    const restored = daemon!.logLines().find((line) => line.msg === 'history restored' && line.station === 'diy');
    expect(Number(restored?.buckets)).toBeGreaterThanOrEqual(a.length);
    const stored = await storedTemperatures();
    expect(stored.slice(0, a.length)).toEqual(a.map((payload) => (JSON.parse(payload) as { t: number }).t));
    expect(stored.length).toBeLessThanOrEqual(a.length + b.length);
    expect(await daemon!.stop('SIGTERM')).toBe(0);
  }, 60_000);

  it('SIGTERM: nothing the daemon had ingested is lost', async () => {
    const a = readings(20, 30, 1);
    const b = readings(5, 2, 40);
    await twoBatches(await startWithStation(), a, b);
    expect(await daemon!.stop('SIGTERM')).toBe(0);

    await startWithStation();
    const restored = daemon!.logLines().find((line) => line.msg === 'history restored' && line.station === 'diy');
    expect(Number(restored?.buckets)).toBe(a.length + b.length);
    expect(await storedTemperatures()).toEqual([...a, ...b].map((payload) => (JSON.parse(payload) as { t: number }).t));
    expect(await daemon!.stop('SIGTERM')).toBe(0);
  }, 60_000);
});

const mosquittoPresent = mosquittoAvailable();
const mosquittoRequired = Boolean(process.env.CI);
if (!mosquittoPresent && !mosquittoRequired) {
  console.warn(`broker-restart fault tests skipped: ${MOSQUITTO_BINARY} not found (with CI set they fail instead)`);
}

describe.skipIf(!mosquittoPresent && !mosquittoRequired)('external broker (mosquitto) killed mid-stream', () => {
  mqttTest.for(['SIGTERM', 'SIGKILL'] as const)(
    "%s, back once both clients saw it go: the daemon reconnects within 2 s of the broker's return (shipped back-off) and no reading is lost",
    { timeout: 40_000 },
    async (signal, { mqtt }) => {
      expect(mosquittoPresent, `${MOSQUITTO_BINARY} is missing`).toBe(true);
      const broker = await mqtt.mosquitto({ autosave: true });
      const port = broker.port;
      // The shipped reconnect setting (60 s cap), not the test harness's short one.
      const config = testMqttConfig({
        stations: [DIY],
        mqtt: { url: `mqtt://127.0.0.1:${port}`, reconnectMaxSeconds: 60 },
        broker: { enabled: false },
      });
      const running = await mqtt.start(config);
      await waitUntil(() => running.service.stats().connected, 'daemon connected', 10_000);
      // Until mosquitto's one-second autosave has recorded the daemon's session and subscription.
      const persisted = join(mqtt.dir, 'mosquitto.db');
      await waitUntil(
        () => {
          try {
            const saved = readFileSync(persisted);
            return saved.includes(clientIdFor(config)) && saved.includes(DIY.topic);
          } catch {
            return false;
          }
        },
        "mosquitto to autosave the daemon's session",
        10_000,
      );

      const station = (await mqtt.connect(port, { clientId: `station-${signal}`, clean: false, reconnectPeriod: 200 })).client;
      const total = 60;
      const baseSeconds = Math.floor(mqtt.clock.now() / 1000) - 3600;
      const publish = (i: number) =>
        station.publishAsync('diy/weather', JSON.stringify({ t: 10 + i / 10, r: 0, ts: baseSeconds + i * 30 }), { qos: 1 });

      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < total / 2; i++) pending.push(publish(i));
      // Mid-stream, between two readings the daemon has fully handled: kill the broker, keep publishing.
      await waitUntil(() => running.service.stats().accepted === total / 2, `first ${total / 2} readings`);
      await broker.stop(signal);
      await waitUntil(() => !station.connected && !running.service.stats().connected, 'both clients to see the broker go', 10_000);
      // The second half waits in the publisher's QoS 1 store while the broker is down.
      for (let i = total / 2; i < total; i++) pending.push(publish(i));
      await broker.start();
      const returnedAt = Date.now();
      await waitUntil(() => running.service.stats().connected, 'the daemon reconnected on its own', 10_000);
      // The shipped back-off retries every second at first, so the daemon is back about 1 s after the broker;
      // 2 s is the promise (bench/reconnect.bench.ts reports the measured time).
      const reconnectMs = Date.now() - returnedAt;
      expect(reconnectMs, `reconnected ${reconnectMs} ms after the broker returned`).toBeLessThanOrEqual(2000);

      await Promise.all(pending);
      await waitUntil(() => running.service.stats().accepted === total, `all ${total} readings`, 15_000).catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(running.service.stats())}\n${broker.output}`);
      });
      expect(running.service.stats().rejected).toBe(0);
    },
  );
});
