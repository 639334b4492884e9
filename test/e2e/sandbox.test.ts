import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceSchema } from '../../src/config/serviceSchema.js';
import { useDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';
import { addressFamilyLauncher, unitAddressFamilies } from '../helpers/sandbox.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

/** errno EAFNOSUPPORT on Linux: what socket(AF_NETLINK, ...) returns under the restriction. */
const EAFNOSUPPORT = 97;
const START_DEADLINE_MS = 15_000;

// Sandboxed built daemons, each started and stopped: 2 s a test on a quiet machine.
describe("the built daemon under the unit's RestrictAddressFamilies=", { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  let helperDir: ReturnType<typeof makeTempDir>;
  let launcher: string[];

  beforeAll(() => {
    helperDir = makeTempDir();
    launcher = addressFamilyLauncher(helperDir.dir);
  });
  afterAll(() => helperDir.cleanup());
  const fixture = useDaemonProcess();

  /** Starts the sandboxed daemon and waits until the MQTT side (started after HTTP) is up too. */
  async function startSandboxed(env: Record<string, string>): Promise<DaemonProcess> {
    const started = await fixture.start(env, [], { launcher });
    await waitFor(() => started.logLines().some((line) => line.msg === 'MQTT bridge started'), START_DEADLINE_MS);
    return started;
  }

  it("the helper enforces the unit's list: listing interfaces needs AF_NETLINK and fails", () => {
    expect(unitAddressFamilies()).not.toContain('AF_NETLINK');
    const probe =
      'try { require("node:os").networkInterfaces(); console.log("listed") } catch (e) { console.log(e.info?.errno ?? e.message) }';
    const [command, ...prefix] = launcher;
    const sandboxed = spawnSync(command as string, [...prefix, process.execPath, '-e', probe], { encoding: 'utf8' });
    expect(sandboxed.stdout.trim()).toBe(String(EAFNOSUPPORT));
    expect(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).trim()).toBe('listed');
  });

  it('starts with the default listen address and embedded broker and answers /health with 200', async () => {
    expect(serviceSchema.http.host.default).toBe('0.0.0.0');
    const started = Date.now();
    const running = await startSandboxed({ MOWABILITY_HTTP_HOST: serviceSchema.http.host.default, MOWABILITY_BROKER_ENABLED: 'true' });
    const health = await fetch(`http://127.0.0.1:${new URL(running.baseUrl).port}/health`);
    expect(health.status).toBe(200);
    console.info(`sandboxed daemon (host 0.0.0.0): /health 200 after ${Date.now() - started} ms`);
    expect(await running.stop('SIGTERM')).toBe(0);
  });

  it('takes the broker accounts from $CREDENTIALS_DIRECTORY and never logs them, even at trace level', async () => {
    const password = 'sandbox-credential-pw';
    const credentials = join(fixture.temp.dir, 'credentials');
    mkdirSync(credentials, { mode: 0o700 });
    writeFileSync(join(credentials, 'broker.users'), `${JSON.stringify([{ username: 'station', password }])}\n`);
    // A broker on all interfaces is refused without accounts: it starts only if the credential was read.
    const running = await startSandboxed({
      CREDENTIALS_DIRECTORY: credentials,
      MOWABILITY_BROKER_ENABLED: 'true',
      MOWABILITY_BROKER_HOST: '0.0.0.0',
      MOWABILITY_LOG_LEVEL: 'trace',
    });
    const port = Number(running.logLines().find((line) => line.msg === 'embedded MQTT broker listening')?.port);
    const connect = (options: mqtt.IClientOptions) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
    await expect(connect({})).rejects.toThrow('Connection refused: Bad username or password');
    const client = await connect({ username: 'station', password });
    await client.endAsync();
    expect(await running.stop('SIGTERM')).toBe(0);
    expect(running.output()).not.toContain(password);
  });
});
