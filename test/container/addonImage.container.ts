/**
 * The Home Assistant add-on image (built by scripts/container-test.sh from scripts/addon-folder.sh's
 * folder with build.yaml's arguments, as the Supervisor builds a local add-on; ADDON_IMAGE names it)
 * run with podman against a fake Supervisor (test/helpers/fakeSupervisor.ts) and Debian's Mosquitto
 * with the account the Supervisor hands out, and a fake Open-Meteo, all on the host's loopback (the
 * container on the host network; the ingress proxy's address is then 127.0.0.1): with empty options
 * it connects, publishes discovery and a modelled station at Home Assistant's home; the status page
 * loads through the ingress prefix in Chromium with no failed request; a bad option is the config
 * error in the container's log and exit 78, so the add-on stays down with that message.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { berlinCoreConfig, FakeSupervisor } from '../helpers/fakeSupervisor.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { startSecureMosquitto } from '../helpers/secureMosquitto.js';
import { waitUntil } from '../helpers/wait.js';
import { FakeModelledServer } from '../modelled/fakeModelledServer.js';

const run = promisify(execFile);
const IMAGE = process.env.ADDON_IMAGE ?? 'localhost/mowability-addon:test';
const TOKEN = 'supervisor-token-in-the-container-test';
const PASSWORD = 'broker-password-from-the-fake-supervisor';
const CONTAINER = 'mowtest-addon';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function podman(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('podman', args, { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, output: (failed.stdout ?? '') + (failed.stderr ?? '') };
  }
}

describe('the add-on image', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function world() {
    const temp = makeTempDir('mow-addon-image-');
    chmodSync(temp.dir, 0o755);
    cleanups.push(() => temp.cleanup());
    const broker = await startSecureMosquitto(temp.dir, { accounts: { addons: PASSWORD } });
    cleanups.push(() => broker.stop());
    const openMeteo = await FakeModelledServer.start(() => Date.now());
    cleanups.push(() => openMeteo.close());
    const supervisor = await FakeSupervisor.start({
      token: TOKEN,
      mqtt: { host: '127.0.0.1', port: broker.port, username: 'addons', password: PASSWORD },
      core: berlinCoreConfig(),
    });
    cleanups.push(() => supervisor.stop());
    const httpPort = await freePort();
    supervisor.ingressTarget = { host: '127.0.0.1', port: httpPort };
    const env = [
      `SUPERVISOR_TOKEN=${TOKEN}`,
      `MOWABILITY_SUPERVISOR_URL=${supervisor.url}`,
      `MOWABILITY_HTTP_PORT=${httpPort}`,
      'MOWABILITY_HTTP_INGRESS_PROXY=127.0.0.1',
      `MOWABILITY_FORECAST_OPEN_METEO_URL=${openMeteo.baseUrl}`,
      'MOWABILITY_FORECAST_RETRIES=0',
    ].flatMap((pair) => ['-e', pair]);
    const runArgs = ['--network', 'host', '-v', `${temp.dir}:/data`, ...env, IMAGE];
    const writeOptions = (value: object) => writeFileSync(`${temp.dir}/options.json`, JSON.stringify(value), { mode: 0o644 });
    return { broker, openMeteo, supervisor, httpPort, runArgs, writeOptions };
  }

  it('with empty options: discovery, a modelled station at home, the page through ingress in Chromium without a failed request', async () => {
    const w = await world();
    w.writeOptions({});
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${w.broker.port}`, {
      username: 'addons',
      password: PASSWORD,
      reconnectPeriod: 0,
    });
    cleanups.push(() => client.endAsync());
    const seen = new Map<string, string>();
    client.on('message', (topic, payload) => seen.set(topic, payload.toString('utf8')));
    await client.subscribeAsync(['homeassistant/#', 'mowability/#'], { qos: 1 });
    await podman(['rm', '-f', CONTAINER]);
    const started = await podman(['run', '-d', '--name', CONTAINER, ...w.runArgs]);
    expect(started.code, started.output).toBe(0);
    cleanups.push(() => podman(['rm', '-f', '-t', '2', CONTAINER]));
    const logs = async () => (await podman(['logs', CONTAINER])).output;
    const state = () =>
      seen.has('mowability/home/state') ? (JSON.parse(seen.get('mowability/home/state')!) as Record<string, unknown>) : undefined;
    await waitUntil(() => typeof state()?.index_score === 'number', "the modelled home station's state", 90_000).catch(
      async (err: Error) => {
        throw new Error(`${err.message}; the container's log:\n${await logs()}`);
      },
    );
    expect(state()).toMatchObject({ origin: 'modelled' });
    expect(
      [...seen.keys()].filter((topic) => topic.startsWith('homeassistant/') && topic.includes('mowability_home_')).length,
    ).toBeGreaterThan(10);
    const asked = w.openMeteo.requests[0]!.url.searchParams;
    expect([asked.get('latitude'), asked.get('longitude')]).toEqual(['52.52', '13.41']);
    // The daemon starts MQTT (the state above) before its HTTP server listens: wait for that, as Home Assistant's watchdog does.
    const health = async () => (await fetch(`http://127.0.0.1:${w.httpPort}/health`).catch(() => undefined))?.status;
    await waitUntil(async () => (await health()) !== undefined, 'the HTTP server listens', 30_000);
    expect(await health()).toBe(200);

    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(w.supervisor.ingressUrl, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => document.querySelectorAll('#station-list li').length > 0, { timeout: 30_000 });
    // Through the ingress prefix, and nothing besides it.
    expect(requested.length).toBeGreaterThan(8);
    expect(requested.filter((path) => !path.startsWith('/api/hassio_ingress/'))).toEqual([]);
    expect(requested).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/v1\/stations$/), expect.stringMatching(/\/assets\/app\.js$/)]),
    );
    expect(problems).toEqual([]);
    const text = await logs();
    expect(text).toContain('Home Assistant add-on');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(PASSWORD);
  });

  it('a bad option: the config error in the log, exit 78', async () => {
    const w = await world();
    w.writeOptions({ quiet_hours: '25:00-07:00' });
    const refused = await podman(['run', '--rm', ...w.runArgs]);
    expect(refused.code).toBe(78);
    expect(refused.output).toContain('Invalid configuration:');
    expect(refused.output).toContain('"lawnMemory.noiseHours" = "25:00-07:00" is invalid');
  });
});
