import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceSchema } from '../../src/config/serviceSchema.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { addressFamilyLauncher, unitAddressFamilies } from '../helpers/sandbox.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';

/** errno EAFNOSUPPORT on Linux: what socket(AF_NETLINK, ...) returns under the restriction. */
const EAFNOSUPPORT = 97;

describe('the built daemon under the unit\'s RestrictAddressFamilies=', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let launcher: string[];
  let daemon: DaemonProcess | undefined;

  beforeAll(() => {
    temp = makeTempDir();
    launcher = addressFamilyLauncher(temp.dir);
  });
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) await daemon.stop('SIGKILL');
    temp.cleanup();
  });

  it('the helper enforces the unit\'s list: listing interfaces needs AF_NETLINK and fails', () => {
    expect(unitAddressFamilies()).not.toContain('AF_NETLINK');
    const probe = 'try { require("node:os").networkInterfaces(); console.log("listed") } catch (e) { console.log(e.info?.errno ?? e.message) }';
    const [command, ...prefix] = launcher;
    const sandboxed = spawnSync(command as string, [...prefix, process.execPath, '-e', probe], { encoding: 'utf8' });
    expect(sandboxed.stdout.trim()).toBe(String(EAFNOSUPPORT));
    expect(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).trim()).toBe('listed');
  });

  it('starts with the default listen address and embedded broker and answers /health with 200', async () => {
    const started = Date.now();
    daemon = await startDaemonProcess(
      {
        MOWABILITY_DB_PATH: temp.dbPath,
        MOWABILITY_TIMEZONE: 'UTC',
        MOWABILITY_HTTP_HOST: serviceSchema.http.host.default,
        MOWABILITY_BROKER_ENABLED: 'true',
      },
      [],
      { launcher },
    );
    expect(serviceSchema.http.host.default).toBe('0.0.0.0');
    // The MQTT side starts after HTTP: it must come up under the restriction too.
    const running = daemon;
    await waitFor(() => running.logLines().some((line) => line.msg === 'MQTT bridge started'), 15_000);
    const port = new URL(daemon.baseUrl).port;
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    console.info(`sandboxed daemon: /health 200 after ${Date.now() - started} ms`);
    expect(await daemon.stop('SIGTERM')).toBe(0);
  });
});
