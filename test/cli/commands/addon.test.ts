/**
 * The Home Assistant add-on's start (`mowability addon`, the built CLI as the add-on image runs it)
 * against a fake Supervisor on loopback (test/helpers/fakeSupervisor.ts, its documented endpoints and
 * 401 for a wrong token), Debian's Mosquitto with the account the Supervisor's MQTT service hands
 * out, and a fake Open-Meteo: with empty options the daemon connects with that account, publishes
 * Home Assistant discovery and a modelled station at Home Assistant's home; its page answers through
 * the ingress proxy under the ingress prefix; a mower entity is driven through the Supervisor's
 * WebSocket proxy with the Supervisor's token; a bad option is a config error, exit 78; a wrong
 * token exit 1. The token and the broker's password appear in no output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSecureMosquitto, type SecureMosquitto } from '../../helpers/secureMosquitto.js';
import { berlinCoreConfig, FakeSupervisor } from '../../helpers/fakeSupervisor.js';
import { assertBuilt, BUILT_CLI, runBuiltCli } from '../../helpers/httpCli.js';
import { makeTempDir } from '../../helpers/httpTempDir.js';
import { waitUntil, SLOW_TEST_TIMEOUT_MS } from '../../helpers/wait.js';
import { FakeModelledServer } from '../../modelled/fakeModelledServer.js';

const TOKEN = 'supervisor-token-for-the-addon-test';
const PASSWORD = 'broker-password-from-the-supervisor';

/** True once the add-on's HTTP server answers (`/health`, the watchdog's URL). */
async function httpListens(port: number): Promise<boolean> {
  return (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined)) !== undefined;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('mowability addon', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function world(options: { mqtt?: boolean; token?: string } = {}) {
    assertBuilt();
    const temp = makeTempDir('mow-addon-');
    cleanups.push(() => temp.cleanup());
    const broker: SecureMosquitto = await startSecureMosquitto(temp.dir, { accounts: { addons: PASSWORD } });
    cleanups.push(() => broker.stop());
    const openMeteo = await FakeModelledServer.start(() => Date.now());
    cleanups.push(() => openMeteo.close());
    const supervisor = await FakeSupervisor.start({
      token: TOKEN,
      mqtt: options.mqtt === false ? undefined : { host: '127.0.0.1', port: broker.port, username: 'addons', password: PASSWORD },
      core: berlinCoreConfig(),
    });
    cleanups.push(() => supervisor.stop());
    const httpPort = await freePort();
    supervisor.ingressTarget = { host: '127.0.0.1', port: httpPort };
    const env = {
      PATH: process.env.PATH ?? '',
      SUPERVISOR_TOKEN: options.token ?? TOKEN,
      MOWABILITY_SUPERVISOR_URL: supervisor.url,
      MOWABILITY_ADDON_DATA: temp.dir,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: String(httpPort),
      // The Supervisor's ingress address is 172.30.32.2; here the fake proxies from loopback.
      MOWABILITY_HTTP_INGRESS_PROXY: '127.0.0.1',
      MOWABILITY_FORECAST_OPEN_METEO_URL: openMeteo.baseUrl,
      MOWABILITY_FORECAST_RETRIES: '0',
    };
    const options_ = (value: object) => writeFileSync(`${temp.dir}/options.json`, JSON.stringify(value));
    return { temp, broker, openMeteo, supervisor, env, httpPort, writeOptions: options_ };
  }

  function start(env: Record<string, string>): { child: ChildProcess; output: () => string } {
    const child = spawn(process.execPath, [BUILT_CLI, 'addon'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    });
    return { child, output: () => output };
  }

  async function watch(port: number) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username: 'addons', password: PASSWORD, reconnectPeriod: 0 });
    cleanups.push(() => client.endAsync());
    const seen = new Map<string, string>();
    client.on('message', (topic, payload) => seen.set(topic, payload.toString('utf8')));
    await client.subscribeAsync(['homeassistant/#', 'mowability/#'], { qos: 1 });
    return seen;
  }

  it(
    "with empty options: connects with the Supervisor's broker account, publishes discovery and a modelled station at Home Assistant's home",
    async () => {
      const w = await world();
      w.writeOptions({});
      const seen = await watch(w.broker.port);
      const { child, output } = start(w.env);
      const state = () =>
        seen.has('mowability/home/state') ? (JSON.parse(seen.get('mowability/home/state')!) as Record<string, unknown>) : undefined;
      await waitUntil(() => typeof state()?.index_score === 'number', "the modelled home station's state", 45_000).catch((err: Error) => {
        throw new Error(`${err.message}; the add-on's log:\n${output()}`);
      });
      expect(state()).toMatchObject({ origin: 'modelled' });
      const discovery = [...seen.keys()].filter((topic) => topic.startsWith('homeassistant/') && topic.includes('mowability_home_'));
      expect(discovery.length).toBeGreaterThan(10);
      // Home Assistant's home, not a setting: the modelled station asked Open-Meteo for its coordinates.
      const asked = w.openMeteo.requests[0]!.url.searchParams;
      expect([asked.get('latitude'), asked.get('longitude')]).toEqual(['52.52', '13.41']);
      expect(w.supervisor.requests.map((request) => request.path)).toEqual(
        expect.arrayContaining(['/services/mqtt', '/core/api/config', '/info']),
      );
      expect(w.supervisor.requests.every((request) => request.authorized)).toBe(true);

      // The page through the ingress proxy names everything under the ingress prefix. The daemon starts MQTT (the state
      // above) before its HTTP server listens: wait for that, as Home Assistant's watchdog does.
      await waitUntil(() => httpListens(w.httpPort), 'the HTTP server listens', 30_000);
      const page = await (await fetch(w.supervisor.ingressUrl)).text();
      expect(page).toContain('<meta name="mowability-base" content="/api/hassio_ingress/');
      expect(page).toMatch(/src="\/api\/hassio_ingress\/[^/]+\/assets\/app\.js\?v=/);
      expect(page).not.toMatch(/(src|href)="\/(?!api\/hassio_ingress)/);
      // The watchdog's /health on the same port.
      expect((await fetch(`http://127.0.0.1:${w.httpPort}/health`)).status).toBe(200);

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(output()).toContain('Home Assistant add-on');
      expect(output()).not.toContain(TOKEN);
      expect(output()).not.toContain(PASSWORD);
    },
    SLOW_TEST_TIMEOUT_MS,
  );

  it(
    "drives the mower entity through the Supervisor's WebSocket proxy with the Supervisor's token, which no output shows",
    async () => {
      const w = await world();
      w.writeOptions({ mower_control: 'dry_run', mower_entity: 'lawn_mower.robbi' });
      const seen = await watch(w.broker.port);
      const { child, output } = start({ ...w.env, MOWABILITY_HTTP_METRICS: 'open' });
      const ha = w.supervisor.homeAssistant!;
      await waitUntil(() => ha.authenticatedClients === 1, 'the add-on authenticated through the Supervisor proxy', 30_000).catch(
        (err: Error) => {
          throw new Error(`${err.message}; the add-on's log:\n${output()}`);
        },
      );
      expect(ha.authAttempts).toEqual([TOKEN]);
      type State = { mower_control?: { activity: string; connection_problem: string | null } };
      const state = () => (seen.has('mowability/home/state') ? (JSON.parse(seen.get('mowability/home/state')!) as State) : undefined);
      await waitUntil(() => state()?.mower_control?.activity === 'docked', "the entity's state from get_states", 45_000);
      // The daemon starts MQTT (and the mower module's first get_states) before its HTTP server listens.
      await waitUntil(() => httpListens(w.httpPort), 'the HTTP server listens', 30_000);
      const texts = await Promise.all(
        ['/metrics', '/', '/v1/stations', '/v1/stations/home', '/health'].map(async (path) =>
          (await fetch(`http://127.0.0.1:${w.httpPort}${path}`)).text(),
        ),
      );
      const shown = await runBuiltCli(['config'], w.env);
      expect(shown.stdout).toContain('supervisorToken');
      child.kill('SIGTERM');
      await once(child, 'exit');
      const everything = [output(), ...texts, shown.stdout, shown.stderr, ...seen.values()].join('\n');
      expect(everything).not.toContain(TOKEN);
      expect(everything).not.toContain(PASSWORD);
    },
    SLOW_TEST_TIMEOUT_MS,
  );

  it('a bad option: the config error in the log in the same words, exit 78, nothing started', async () => {
    const w = await world();
    w.writeOptions({ mower_control: 'sometimes' });
    const typeError = await runBuiltCli(['addon'], w.env);
    expect(typeError.code).toBe(78);
    expect(typeError.stderr).toContain('add-on option "mower_control" must be one of off, dry_run, on, not "sometimes"');
    // A value the option's type allows but the setting refuses: the setting's own message.
    w.writeOptions({ quiet_hours: '25:00-07:00' });
    const settingError = await runBuiltCli(['addon'], w.env);
    expect(settingError.code).toBe(78);
    expect(settingError.stderr).toContain('Invalid configuration:');
    expect(settingError.stderr).toContain('"lawnMemory.noiseHours" = "25:00-07:00" is invalid');
    expect((await fetch(`http://127.0.0.1:${w.httpPort}/health`).catch(() => undefined))?.status).toBeUndefined();
  });

  it("a wrong token: the Supervisor's 401 as a clear message, exit 1; no MQTT service: says which add-on is missing", async () => {
    const w = await world({ token: 'not-the-token' });
    w.writeOptions({});
    const refused = await runBuiltCli(['addon'], w.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the Supervisor refused the add-on's token");
    expect(refused.stderr).not.toContain('not-the-token');
    const noBroker = await world({ mqtt: false });
    noBroker.writeOptions({});
    const missing = await runBuiltCli(['addon'], noBroker.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No mqtt service provider found');
  });
});
