/**
 * ACL denials on an external broker, which MQTT 3.1.1 never reports: Mosquitto acknowledges a
 * denied PUBLISH and drops it, and grants a SUBSCRIBE it then never delivers. The daemon's round
 * trip of its own state finds them; checked against a real Mosquitto 2 with a password file and an
 * ACL file, asserting /health, `mowability status` and the log. The daemon's clock is the fixture's
 * fake one, so the probe's waits pass without the test waiting for them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it as plain } from 'vitest';
import { AccessProbe, describeFindings, ROUND_TRIP_MS, STATION_SILENCE_MS } from '../../src/mqtt/accessProbe.js';
import { mqttTest as it, type MqttDaemonFixture, type ServedDaemon } from '../helpers/mqttFixture.js';
import { FakeClock, waitUntil } from '../helpers/mqttHarness.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { startSecureMosquitto } from '../helpers/secureMosquitto.js';
import { mosquittoAvailable } from '../../bench/lib/mosquitto.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

describe('AccessProbe', () => {
  const online = Buffer.from('online');

  plain('says nothing before the round trip had its time, then names the own topic', () => {
    const clock = new FakeClock(0);
    const probe = new AccessProbe({ clock, ownTopic: 'mowability/bridge/state' });
    probe.connected();
    clock.advance(ROUND_TRIP_MS - 1);
    expect(probe.findings()).toEqual({ silent: [] });
    clock.advance(1);
    expect(probe.findings()).toEqual({ own: { topic: 'mowability/bridge/state', canRead: false }, silent: [] });
    probe.ownMessage(Buffer.from('offline'), true); // the retained state of the last stop: reading works
    expect(probe.findings().own?.canRead).toBe(true);
    expect(describeFindings(probe.findings(), 'account "w"')).toEqual([
      'the broker does not let account "w" publish mowability/bridge/state (its own state never came back; the retained one is old): check its ACL (the daemon\'s account needs readwrite on mqtt.baseTopic/#)',
    ]);
  });

  plain('a retained "online" is not this connection\'s publish come back; a live one is', () => {
    const clock = new FakeClock(0);
    const probe = new AccessProbe({ clock, ownTopic: 'm/bridge/state' });
    probe.connected();
    probe.ownMessage(online, true);
    clock.advance(ROUND_TRIP_MS);
    expect(probe.findings().own).toBeDefined();
    probe.ownMessage(online, false);
    expect(probe.findings()).toEqual({ silent: [] });
  });

  plain('names a station topic that delivered nothing once the broker is known to carry traffic, and starts anew on reconnect', () => {
    const clock = new FakeClock(0);
    const probe = new AccessProbe({ clock, ownTopic: 'm/bridge/state' });
    probe.watch('weewx/loop');
    probe.watch('rtl_433/+/events');
    probe.connected();
    probe.ownMessage(online, false);
    probe.delivered('rtl_433/+/events');
    clock.advance(STATION_SILENCE_MS - 1);
    expect(probe.findings().silent).toEqual([]);
    clock.advance(1);
    expect(probe.findings().silent).toEqual([{ topic: 'weewx/loop', minutes: 10 }]);
    probe.connected();
    clock.advance(ROUND_TRIP_MS);
    expect(probe.findings()).toEqual({ own: { topic: 'm/bridge/state', canRead: false }, silent: [] });
  });
});

const available = mosquittoAvailable();
const required = Boolean(process.env.CI);

interface Health {
  mfi: { checks: { mqtt?: { status: string; message: string } } };
}

async function mqttCheck(daemon: ServedDaemon): Promise<{ status: string; message: string } | undefined> {
  return ((await (await fetch(`${daemon.httpAddress}/health`)).json()) as Health).mfi.checks.mqtt;
}

const accounts = { mowability: 'daemon-password', station: 'station-password', admin: 'admin-password' };
const weewx = { id: 'garden', name: 'Garden', format: 'json', topic: 'weewx/loop', fields: { temperature: 't' } };

describe.skipIf(!available && !required)('ACL denials against Mosquitto 2 with an ACL file', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  async function serveAgainst(mqtt: MqttDaemonFixture, acl: string, extraEnv: Record<string, string> = {}) {
    const broker = await startSecureMosquitto(mqtt.dir, { accounts, acl });
    mqtt.defer(() => broker.stop('SIGKILL'));
    const env = {
      ...extraEnv,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_BROKER_ENABLED: 'false',
      MOWABILITY_MQTT_URL: `mqtt://127.0.0.1:${broker.port}`,
      MOWABILITY_MQTT_USERNAME: 'mowability',
      MOWABILITY_MQTT_PASSWORD: accounts.mowability,
    };
    const daemon = await mqtt.serve({ stations: [weewx] }, { logLevel: 'info', env, fakeClock: true });
    const status = async () =>
      (
        await runCliInProcess(['status'], {
          ...env,
          MOWABILITY_DB_PATH: mqtt.dbPath,
          MOWABILITY_HTTP_HOST: '127.0.0.1',
          MOWABILITY_HTTP_PORT: new URL(daemon.httpAddress).port,
        })
      ).stdout;
    const warned = () =>
      daemon.log
        .lines()
        .filter((entry) => entry.level === 40)
        .map((entry) => String(entry.msg));
    return { broker, daemon, status, warned };
  }

  it(
    'publishing denied: health is an error naming the account and the topic, so are status and the log',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async ({ mqtt }) => {
      // The daemon may read its topics but not write them; the last stop's retained state is there.
      const acl = 'user mowability\ntopic read mowability/#\ntopic read weewx/#\n\nuser admin\ntopic readwrite #\n';
      const { broker, daemon, status, warned } = await serveAgainst(mqtt, acl);
      const admin = await mqtt.connect(broker.port, { username: 'admin', password: accounts.admin });
      await admin.client.publishAsync('mowability/bridge/state', 'offline', { qos: 1, retain: true });
      await waitUntil(() => daemon.daemon.mqtt.stats().connected, 'connected');
      expect((await mqttCheck(daemon))?.status).toBe('ok'); // too early to tell
      mqtt.clock.advance(ROUND_TRIP_MS);
      const line =
        "the broker does not let this daemon's account (mqtt.username) publish mowability/bridge/state (its own state never came back; the retained one is old): check its ACL";
      await waitUntil(async () => (await mqttCheck(daemon))?.message.includes(line) === true, 'the denial in /health', 10_000).catch(
        async (err: Error) => {
          throw new Error(`${err.message}: ${JSON.stringify(await mqttCheck(daemon))}`);
        },
      );
      expect(await mqttCheck(daemon)).toEqual({
        status: 'error',
        code: 'access_limited',
        message: `connected to the external broker (mqtt.url), but ${line} (the daemon's account needs readwrite on mqtt.baseTopic/#)`,
      });
      expect(await status()).toContain(
        'MQTT: error: connected to the external broker (mqtt.url), but the broker does not let account "mowability" (mqtt.username) publish mowability/bridge/state',
      );
      await waitUntil(
        () =>
          warned().some((msg) =>
            msg.startsWith('the broker does not let account "mowability" (mqtt.username) publish mowability/bridge/state'),
          ),
        'the log line',
        15_000,
      );
    },
  );

  it('nothing of its own allowed: "publish or read"', { timeout: SLOW_TEST_TIMEOUT_MS }, async ({ mqtt }) => {
    const { daemon } = await serveAgainst(mqtt, 'user mowability\ntopic read weewx/#\n');
    await waitUntil(() => daemon.daemon.mqtt.stats().connected, 'connected');
    mqtt.clock.advance(ROUND_TRIP_MS);
    await waitUntil(async () => (await mqttCheck(daemon))?.status === 'error', 'the denial in /health', 10_000);
    expect((await mqttCheck(daemon))?.message).toMatch(
      /does not let this daemon's account \(mqtt\.username\) publish or read mowability\/bridge\/state \(its own state did not come back within 30 s\): check its ACL/,
    );
  });

  it(
    "the station topic unreadable: the granted subscription that never delivers is named, while the daemon's own traffic flows",
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async ({ mqtt }) => {
      const acl = 'user mowability\ntopic readwrite mowability/#\ntopic write homeassistant/#\n\nuser station\ntopic write weewx/#\n';
      const { broker, daemon, status, warned } = await serveAgainst(mqtt, acl);
      await waitUntil(() => daemon.daemon.mqtt.stats().connected, 'connected');
      const station = await mqtt.connect(broker.port, { username: 'station', password: accounts.station });
      await station.client.publishAsync('weewx/loop', JSON.stringify({ t: 18 }), { qos: 1 });
      // The round trip is done before the silence counts (the probe needs it to know the broker carries traffic).
      mqtt.clock.advance(ROUND_TRIP_MS);
      await waitUntil(async () => (await mqttCheck(daemon))?.status === 'ok', 'the own round trip');
      mqtt.clock.advance(STATION_SILENCE_MS);
      const line =
        "nothing arrived on weewx/loop in the 10 min since the daemon connected, although the broker carries the daemon's own messages: if the station publishes there, the broker does not let this daemon's account (mqtt.username) read weewx/loop: check its ACL";
      await waitUntil(async () => (await mqttCheck(daemon))?.message.includes(line) === true, 'the silent topic in /health', 10_000).catch(
        async (err: Error) => {
          throw new Error(`${err.message}: ${JSON.stringify(await mqttCheck(daemon))}`);
        },
      );
      expect(daemon.daemon.mqtt.stats().accepted).toBe(0);
      expect(await status()).toContain('the broker does not let account "mowability" (mqtt.username) read weewx/loop: check its ACL');
      await waitUntil(
        () => warned().some((msg) => msg.includes('does not let account "mowability" (mqtt.username) read weewx/loop')),
        'the log line',
        15_000,
      );
    },
  );

  /** Each account may do its part: after a reading through the ACL and the station's silence has passed, the probe finds nothing. */
  async function expectNoFinding(mqtt: MqttDaemonFixture, extraEnv: Record<string, string> = {}): Promise<void> {
    const acl =
      'user mowability\ntopic readwrite mowability/#\ntopic write homeassistant/#\ntopic read weewx/#\n\nuser station\ntopic write weewx/#\n';
    const { broker, daemon } = await serveAgainst(mqtt, acl, extraEnv);
    await waitUntil(() => daemon.daemon.mqtt.stats().connected, 'connected');
    const station = await mqtt.connect(broker.port, { username: 'station', password: accounts.station });
    await waitUntil(async () => {
      await station.client.publishAsync('weewx/loop', JSON.stringify({ t: 18 }), { qos: 1 });
      return daemon.daemon.mqtt.stats().accepted >= 1;
    }, 'a reading through the ACL');
    // Its own "online" came back long before (the reading came later through the same broker); waiting covers a slow machine.
    await waitUntil(async () => (await mqttCheck(daemon))?.status === 'ok', 'ok');
    mqtt.clock.advance(ROUND_TRIP_MS + STATION_SILENCE_MS);
    // The probe's verdicts are read at the clock's time: the silence has passed for every watched topic.
    await waitUntil(async () => (await mqttCheck(daemon))?.message === 'connected to the external broker (mqtt.url)', 'no finding').catch(
      async (err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(await mqttCheck(daemon))}`);
      },
    );
  }

  it('everything allowed: no finding, however long it runs', { timeout: SLOW_TEST_TIMEOUT_MS }, async ({ mqtt }) => {
    await expectNoFinding(mqtt);
  });

  it(
    "a modelled station's topic, where nothing is ever published, is not named as unreadable",
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async ({ mqtt }) => {
      // MOWABILITY_LOCATION adds the modelled station "home" (topic mowability-modelled/home); Open-Meteo on a closed port.
      await expectNoFinding(mqtt, { MOWABILITY_LOCATION: '52.52,13.41', MOWABILITY_FORECAST_OPEN_METEO_URL: 'http://127.0.0.1:9' });
    },
  );

  it(
    "docs/mqtt.md's ACL: Mosquitto starts without a warning about it, each account does its part, and the probe finds nothing",
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async ({ mqtt }) => {
      const docs = readFileSync(new URL('../../docs/mqtt.md', import.meta.url), 'utf8');
      const acl = /```\n(# \/etc\/mosquitto\/acl\n[\s\S]*?)```/.exec(docs)?.[1];
      expect(acl, 'the ACL block of docs/mqtt.md').toBeDefined();
      const broker = await startSecureMosquitto(mqtt.dir, {
        accounts: { mowability: 'd', homeassistant: 'h', weewx: 'w', rtl433: 'r' },
        acl: acl!,
      });
      mqtt.defer(() => broker.stop('SIGKILL'));
      expect(broker.output.split('\n').filter((line) => /ACL|acl/.test(line))).toEqual([]);
      const env = {
        MOWABILITY_TIMEZONE: 'UTC',
        MOWABILITY_BROKER_ENABLED: 'false',
        MOWABILITY_MQTT_URL: `mqtt://127.0.0.1:${broker.port}`,
        MOWABILITY_MQTT_USERNAME: 'mowability',
        MOWABILITY_MQTT_PASSWORD: 'd',
      };
      const daemon = await mqtt.serve({ stations: [weewx] }, { logLevel: 'warn', env, fakeClock: true });
      await waitUntil(() => daemon.daemon.mqtt.stats().connected, 'connected');
      const homeassistant = await mqtt.connect(broker.port, { username: 'homeassistant', password: 'h' });
      await homeassistant.client.subscribeAsync('mowability/garden/state', { qos: 1 });
      const station = await mqtt.connect(broker.port, { username: 'weewx', password: 'w' });
      await waitUntil(async () => {
        await station.client.publishAsync('weewx/loop', JSON.stringify({ t: 18 }), { qos: 1 });
        return homeassistant.latest.get('mowability/garden/state')?.payload.includes('"temperature":18') === true;
      }, 'a reading from the weewx account, its state read by the homeassistant account');
      // Its own "online" came back long before (the reading came later through the same broker); waiting covers a slow machine.
      await waitUntil(async () => (await mqttCheck(daemon))?.status === 'ok', 'ok');
      mqtt.clock.advance(ROUND_TRIP_MS + STATION_SILENCE_MS);
      await waitUntil(async () => (await mqttCheck(daemon))?.message === 'connected to the external broker (mqtt.url)', 'no finding').catch(
        async (err: Error) => {
          throw new Error(`${err.message}: ${JSON.stringify(await mqttCheck(daemon))}`);
        },
      );
    },
  );
});
