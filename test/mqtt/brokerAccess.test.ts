/**
 * Who may publish and subscribe what on the embedded broker: the attacks of
 * the hardening review (spoofing our topics with our client id or through an
 * account, fake discovery configs, poison topics, reading $SYS), each with a
 * real mqtt.js client against the daemon on an ephemeral port.
 */
import { describe, expect, it } from 'vitest';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Client } from 'aedes';
import type { StationConfig } from '../../src/ingest/types.js';
import { BrokerAccess } from '../../src/mqtt/brokerAccess.js';
import { ClientTopics } from '../../src/mqtt/clientTopics.js';
import { INTERNAL_USERNAME, validateBrokerUsers } from '../../src/config/mqttValues.js';
import { allDiscoveryMessages, discoveryTopicFilters } from '../../src/homeassistant/discovery.js';
import { topicTextProblem } from '../../src/mqtt/topics.js';
import { clientIdFor } from '../../src/mqtt/settings.js';
import { Database } from '../../src/store/database.js';
import { RetainedStore } from '../../src/store/retainedStore.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { mqttTest, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import {
  publishOnce,
  retainedMessage,
  testMqttConfig,
  waitUntil,
  type RunningDaemon,
  storedRetainedTopics,
} from '../helpers/mqttHarness.js';
import { publishPacket, rawExchange, subscribePacket } from '../helpers/mqttRaw.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const ACCOUNT = { username: 'rtl433', password: 'correct horse' };
const MOWABLE_TOPIC = 'homeassistant/binary_sensor/mowability_garden_mowable/config';
const FAKE_DISCOVERY = JSON.stringify({
  name: 'Mowable now',
  unique_id: 'mowability_garden_mowable',
  state_topic: 'evil/state',
  value_template: 'ON',
});

function fakeClient(id: string, remoteAddress = '127.0.0.1'): Client {
  return { id, conn: { remoteAddress } } as unknown as Client;
}

describe('topic text, discovery filters and the access rules', () => {
  it('refuses ill-formed text in topics the way Mosquitto clients would', () => {
    expect(topicTextProblem('rtl_433/pi/events')).toBeUndefined();
    expect(topicTextProblem('wetter/außen/°C')).toBeUndefined();
    expect(topicTextProblem(Buffer.from([0x61, 0xff, 0x62]).toString('utf8'))).toBe('topic is not valid UTF-8');
    expect(topicTextProblem('a/\u0000/b')).toBe('topic contains U+0000');
    expect(topicTextProblem('a/\u001b[2J')).toBe('topic contains a control character');
    expect(topicTextProblem('a/\u0085')).toBe('topic contains a control character');
    expect(topicTextProblem('a/\uFDD0')).toBe('topic contains a Unicode noncharacter');
    expect(topicTextProblem('a/\u{1FFFF}')).toBe('topic contains a Unicode noncharacter');
  });

  it('derives the owned discovery filters from the discovery messages themselves', () => {
    const filters = discoveryTopicFilters('homeassistant', 'mowability', [garden]);
    const messages = allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: 'x', stations: [garden] });
    expect(filters).toHaveLength(messages.length);
    expect(filters).toContain('homeassistant/+/mowability_garden_mowable/#');
    expect(filters).toContain('homeassistant/+/mowability_bridge_connection_state/#');
    const access = new BrokerAccess({ users: [], ownedTopics: ['mowability/#', ...filters], sysTopicsForAccounts: false });
    for (const message of messages) expect(access.isOwnedTopic(message.topic)).toBe(true);
    // HA's form with a node id level, and any component: still ours.
    expect(access.isOwnedTopic('homeassistant/sensor/mowability_garden_mowable/x/config')).toBe(true);
    expect(access.isOwnedTopic('homeassistant/binary_sensor/other_device/config')).toBe(false);
    expect(access.isOwnedTopic('mowability')).toBe(true);
    expect(access.isOwnedTopic('mowabilityx/garden/state')).toBe(false);
  });

  it("leaves a configured station's command topic (mowed) to other clients, and nothing else under the base topic", () => {
    const clientTopics = new ClientTopics({ baseTopic: 'mowability', stationIds: ['garden'], relayStationIds: [], uploadRelay: false });
    const access = new BrokerAccess({ users: [], ownedTopics: ['mowability/#'], sysTopicsForAccounts: false, clientTopics });
    expect(access.isOwnedTopic('mowability/garden/mowed')).toBe(false);
    expect(access.isOwnedTopic('mowability/nosuch/mowed')).toBe(true);
    expect(access.isOwnedTopic('mowability/garden/state')).toBe(true);
    expect(access.isOwnedTopic('mowability/garden/mowed/x')).toBe(true);
    expect(access.isOwnedTopic('mowability/bridge/mowedx')).toBe(true);
    expect(access.isOwnedTopic('mowability//mowed')).toBe(true);
  });

  it('marks only the connection that logged in with the internal password as ours', () => {
    const access = new BrokerAccess({ users: [], ownedTopics: ['mowability/#'], sysTopicsForAccounts: false });
    const { username, password } = access.internalUser;
    const daemon = fakeClient(access.internalClientId);
    const impostor = fakeClient(access.internalClientId);
    expect(access.authenticate(impostor, undefined, undefined)).toMatchObject({ ok: false, returnCode: 2 });
    expect(access.authenticate(fakeClient('x'), username, Buffer.from('guess'))).toMatchObject({ ok: false, returnCode: 4 });
    expect(access.authenticate(daemon, username, Buffer.from(password))).toEqual({ ok: true });
    expect(access.authenticate(fakeClient('station'), undefined, undefined)).toEqual({ ok: true });
    expect(access.isInternal(daemon)).toBe(true);
    expect(access.isInternal(impostor)).toBe(false);
    expect(access.isInternal(null)).toBe(false);
    expect(access.publishProblem(daemon, 'mowability/garden/state')).toBeUndefined();
    expect(access.publishProblem(fakeClient('station'), 'mowability/garden/state')).toMatch(/only mowability publishes/);
    expect(new BrokerAccess({ users: [], ownedTopics: [], sysTopicsForAccounts: false }).internalClientId).not.toBe(
      access.internalClientId,
    );
    expect(() => validateBrokerUsers([{ username: INTERNAL_USERNAME, password: 'long enough' }])).toThrow(
      /reserved for the daemon's own connection/,
    );
  });

  it('lets $SYS be read only with the setting on, by a loopback client with an account', () => {
    const on = new BrokerAccess({ users: [ACCOUNT], ownedTopics: [], sysTopicsForAccounts: true });
    const local = fakeClient('a');
    const remote = fakeClient('b', '192.0.2.7');
    const mapped = fakeClient('c', '::ffff:127.0.0.1');
    for (const client of [local, remote, mapped])
      expect(on.authenticate(client, ACCOUNT.username, Buffer.from(ACCOUNT.password))).toEqual({ ok: true });
    expect(on.subscribeProblem(local, '$SYS/#')).toBeUndefined();
    expect(on.subscribeProblem(mapped, '$SYS/#')).toBeUndefined();
    expect(on.subscribeProblem(remote, '$SYS/#')).toMatchObject({ close: false });
    const off = new BrokerAccess({ users: [ACCOUNT], ownedTopics: [], sysTopicsForAccounts: false });
    off.authenticate(local, ACCOUNT.username, Buffer.from(ACCOUNT.password));
    expect(off.subscribeProblem(local, '$SYS/#')).toMatchObject({ close: false });
    expect(off.subscribeProblem(local, 'a/\u0000')).toMatchObject({ close: true });
  });
});

describe('attacks on the embedded broker', () => {
  // Set by start(); the fixture closes the clients and stops the daemon after each test.
  let fixture: MqttDaemonFixture;
  let daemon: RunningDaemon | undefined;
  let observer: MqttClient | undefined;
  let log: ReturnType<typeof captureLogger>;
  /** Every message the observer received, in order. */
  let seen: Array<{ topic: string; payload: string }>;

  /** Starts the daemon and an observer of our topics that has seen the daemon's own state and discovery. */
  async function start(
    mqttFixture: MqttDaemonFixture,
    broker: { users?: Array<{ username: string; password: string }>; sysTopics?: boolean } = {},
    observerLogin: IClientOptions = {},
  ): Promise<void> {
    fixture = mqttFixture;
    log = captureLogger('info');
    seen = [];
    daemon = await fixture.start(testMqttConfig({ stations: [garden], broker }), { logger: log.logger });
    observer = (await fixture.connect(daemon.port, observerLogin)).client;
    observer.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString('utf8') }));
    await observer.subscribeAsync(['mowability/#', 'homeassistant/#', 'sync/#'], { qos: 1 });
    await waitUntil(() => seen.some((m) => m.topic === 'mowability/garden/state'), "the daemon's state");
    await waitUntil(() => seen.some((m) => m.topic === MOWABLE_TOPIC), "the daemon's discovery config");
  }

  /** Resolves once the observer has received everything published before this call. */
  async function synced(login: IClientOptions = {}): Promise<void> {
    const marker = `m${Math.random()}`;
    expect(await publishOnce(daemon!.port, 'sync/marker', marker, { qos: 1, connect: login })).toBe('handled');
    await waitUntil(() => seen.some((m) => m.payload === marker), 'the sync marker');
  }

  /**
   * The client id an attacker would guess: the daemon's id on an external broker, derived from the
   * base topic. On the embedded broker the daemon has no client connection at all (it uses aedes in
   * process), so there is no session to take over; its internal login stays reserved.
   */
  function daemonClientId(): string {
    return clientIdFor(testMqttConfig());
  }

  function mowableSpoofs(): number {
    return seen.filter((m) => m.topic === 'mowability/garden/state' && m.payload.includes('"mowable":true')).length;
  }

  /** A kicked daemon reconnects and announces itself again, so a second "online" means it lost its session. */
  function bridgeAnnouncements(): string[] {
    return seen.filter((m) => m.topic === 'mowability/bridge/state').map((m) => m.payload);
  }

  async function retainedTopicsInDatabase(): Promise<string[]> {
    await daemon!.stop();
    return storedRetainedTopics(fixture.dbPath);
  }

  mqttTest("(a) a client presenting the daemon's client id gets nothing delivered; the daemon stays connected", async ({ mqtt: fx }) => {
    await start(fx);
    const outcome = await publishOnce(daemon!.port, 'mowability/garden/state', '{"mowable":true}', {
      qos: 1,
      retain: true,
      connect: { clientId: daemonClientId() },
    });
    await synced();
    expect(mowableSpoofs()).toBe(0);
    expect(JSON.parse((await retainedMessage(daemon!.port, 'mowability/garden/state')) ?? '{}')).toMatchObject({
      station: 'garden',
      mowable: false,
    });
    expect(bridgeAnnouncements()).toEqual(['online']);
    expect(daemon!.service.stats().connected).toBe(true);
    expect(outcome).toBe('closed');
  });

  mqttTest("(b) refuses the daemon's client id and the internal user name through a configured account", async ({ mqtt: fx }) => {
    // $SYS on for accounts, so the observer sees whether the daemon's session is ever closed.
    await start(fx, { users: [ACCOUNT], sysTopics: true }, ACCOUNT);
    await observer!.subscribeAsync('$SYS/+/disconnect/clients', { qos: 0 });
    const spoof = (connect: IClientOptions) =>
      publishOnce(daemon!.port, 'mowability/garden/state', '{"mowable":true}', { qos: 1, retain: true, connect });
    const outcomes = [
      await spoof({ ...ACCOUNT, clientId: daemonClientId() }),
      await spoof({ username: INTERNAL_USERNAME, password: 'a guessed password' }),
      await spoof(ACCOUNT),
    ];
    await synced(ACCOUNT);
    expect(mowableSpoofs()).toBe(0);
    // The observer does see $SYS disconnects (the refused account publisher's); the daemon has no connection to close.
    expect(seen.filter((m) => m.topic.endsWith('/disconnect/clients')).length).toBeGreaterThan(0);
    expect(bridgeAnnouncements()).toEqual(['online']);
    expect(daemon!.service.stats().connected).toBe(true);
    expect(outcomes).toEqual(['closed', 'refused', 'closed']);
  });

  mqttTest('(c) refuses an anonymous retained discovery config for our node id and does not persist it', async ({ mqtt: fx }) => {
    await start(fx);
    const outcome = await publishOnce(daemon!.port, MOWABLE_TOPIC, FAKE_DISCOVERY, { qos: 1, retain: true });
    await synced();
    expect(seen.filter((m) => m.topic === MOWABLE_TOPIC && m.payload.includes('evil/state'))).toHaveLength(0);
    expect(JSON.parse((await retainedMessage(daemon!.port, MOWABLE_TOPIC)) ?? '{}')).toMatchObject({
      state_topic: 'mowability/garden/state',
    });
    expect(await retainedTopicsInDatabase()).not.toContain(MOWABLE_TOPIC);
    expect(outcome).toBe('closed');
  });

  mqttTest('(c) drops fake discovery configs and poison topics that an older version stored, and deletes them', async ({ mqtt: fx }) => {
    const database = await Database.open(fx.dbPath);
    const stored = (topic: string, payload: string) => [topic, { topic, payload: Buffer.from(payload), qos: 1 as const }] as const;
    await new RetainedStore(database).save(
      new Map([stored(MOWABLE_TOPIC, FAKE_DISCOVERY), stored('poison/a\u0000b', 'x'), stored('rtl_433/pi/last', 'kept')]),
      Date.now(),
    );
    await database.close();
    await start(fx);
    expect(JSON.parse((await retainedMessage(daemon!.port, MOWABLE_TOPIC)) ?? '{}')).toMatchObject({
      state_topic: 'mowability/garden/state',
    });
    expect(await retainedMessage(daemon!.port, 'rtl_433/pi/last')).toBe('kept');
    expect(await retainedTopicsInDatabase()).toEqual(['rtl_433/pi/last']);
  });

  mqttTest(
    '(d) refuses publishes and subscribes on topics with invalid UTF-8 or U+0000, counts them, persists nothing',
    async ({ mqtt: fx }) => {
      await start(fx);
      await observer!.subscribeAsync('poison/#', { qos: 1 });
      const invalid = Buffer.concat([Buffer.from('poison/'), Buffer.from([0xc3, 0x28])]);
      const nul = Buffer.from('poison/a\u0000b');
      const outcomes = [
        await rawExchange(daemon!.port, 'p1', publishPacket(invalid, 'x', true), 4),
        await rawExchange(daemon!.port, 'p2', publishPacket(nul, 'x', true), 4),
        await rawExchange(daemon!.port, 'p3', subscribePacket(invalid), 9),
        // The control case: a well-formed topic is answered, so the refusals are about the text.
        await rawExchange(daemon!.port, 'p4', publishPacket(Buffer.from('poison/fine'), 'x', true), 4),
      ];
      await synced();
      expect(seen.filter((m) => m.topic.startsWith('poison/')).map((m) => m.topic)).toEqual(['poison/fine']);
      expect(daemon!.service.stats().brokerRejectedPublishes).toBe(3);
      expect(await retainedTopicsInDatabase()).toEqual(['poison/fine']);
      expect(outcomes).toEqual(['closed', 'closed', 'closed', 'answered']);
    },
  );

  mqttTest('(e) gives an anonymous $SYS/# subscriber nothing: no client id leaks', async ({ mqtt: fx }) => {
    await start(fx);
    const sys: string[] = [];
    const spy = (await fx.connect(daemon!.port)).client;
    spy.on('message', (topic, payload) => topic.startsWith('$SYS') && sys.push(`${topic} ${payload.toString()}`));
    const refused = await spy.subscribeAsync('$SYS/#', { qos: 0 }).then(
      () => false,
      () => true,
    );
    const newcomer = await fx.connect(daemon!.port, { clientId: 'newcomer-with-a-name' });
    await newcomer.client.endAsync();
    await spy.subscribeAsync('sync/#', { qos: 1 });
    const marker = `m${Math.random()}`;
    let markerSeen = false;
    spy.on('message', (_topic, payload) => (markerSeen ||= payload.toString() === marker));
    expect(await publishOnce(daemon!.port, 'sync/marker', marker, { qos: 1 })).toBe('handled');
    await waitUntil(() => markerSeen, 'the sync marker at the $SYS subscriber');
    expect(sys).toEqual([]);
    expect(refused).toBe(true);
  });

  mqttTest('(e) with broker.sysTopics on, a loopback client with an account reads $SYS', async ({ mqtt: fx }) => {
    await start(fx, { users: [ACCOUNT], sysTopics: true }, ACCOUNT);
    const sys: string[] = [];
    const admin = (await fx.connect(daemon!.port, ACCOUNT)).client;
    admin.on('message', (topic, payload) => sys.push(`${topic} ${payload.toString()}`));
    await admin.subscribeAsync('$SYS/+/new/clients', { qos: 0 });
    const newcomer = await fx.connect(daemon!.port, { clientId: 'newcomer-with-a-name', ...ACCOUNT });
    await newcomer.client.endAsync();
    await waitUntil(() => sys.some((line) => line.endsWith(' newcomer-with-a-name')), 'the $SYS announcement');
  });
});
