/**
 * README.md's "Install on a Raspberry Pi", followed step by step: every `sh` block of the section
 * in order, each line run as written inside a stand-in root directory (test/helpers/unitSimulation.ts
 * maps /opt, /etc, /usr/local, /var/lib into it), with the unit started as systemd would start it
 * (dynamic-user-like uid, UMask=, StateDirectory=, Environment=, EnvironmentFile=, LoadCredential=).
 * Lines this machine cannot run are replaced, each one named below: apt-get (the packages are
 * here), `npm install --omit=dev` (test/compat/productionInstall.test.ts does it for real; here the
 * project's node_modules is linked), journalctl. It ends with /health 200, the embedded broker
 * taking the credential's account, and a key from `sudo mowability keys add` working.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { DYNAMIC_UID, mapPaths, startSimulatedUnit, writeServiceStubs, type SimulatedService } from '../helpers/unitSimulation.js';
import { waitUntil } from '../helpers/wait.js';
import { freePort } from '../../bench/lib/mosquitto.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STEPS_TIMEOUT_MS = 180_000;

/** The section's `sh` blocks, in order, each as its lines (`\`-continuations joined). */
function readmeShellBlocks(): string[][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Install on a Raspberry Pi');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] as string)
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.trim() !== ''),
  );
}

describe.skipIf(userInfo().uid !== 0 && !process.env.CI)("README's Raspberry Pi install, step by step", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let root: string;
  let stubs: string;
  let service: SimulatedService | undefined;
  const ports = { http: 0, broker: 0 };
  const ran: string[] = [];
  const wrapperOutputs: string[] = [];
  const serviceOutputs: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    temp = makeTempDir();
    chmodSync(temp.dir, 0o755);
    root = join(temp.dir, 'root');
    stubs = join(temp.dir, 'stubs');
    for (const dir of ['opt', 'etc/systemd/system', 'usr/local/bin', 'var/lib', 'run'])
      mkdirSync(join(root, dir), { recursive: true, mode: 0o755 });
    writeServiceStubs(stubs);
    ports.http = await freePort();
    ports.broker = await freePort();
  });
  afterAll(async () => {
    await service?.stop();
    temp?.cleanup();
  });

  function sh(line: string): string {
    const result = spawnSync('bash', ['-euo', 'pipefail', '-c', mapPaths(root, line.replaceAll('sudo ', ''))], {
      cwd: temp.dir,
      encoding: 'utf8',
    });
    expect(result.status, `${line}\n${result.stderr}`).toBe(0);
    return result.stdout;
  }

  /** The installed admin wrapper, with the stand-ins for systemctl and systemd-run first on PATH. */
  function wrapper(args: string): { status: number | null; stdout: string; stderr: string } {
    return spawnSync('bash', ['-c', `${join(root, 'usr/local/bin/mowability')} ${args}`], {
      encoding: 'utf8',
      env: {
        PATH: `${stubs}:${process.env.PATH ?? ''}`,
        MOWABILITY_NODE: process.execPath,
        MOWABILITY_CLI: join(root, 'opt/mowability/dist/cli/main.js'),
      },
    });
  }

  /** (Re)starts the unit; the machine's ports 8080 and 1883 may be taken, so a drop-in of the test's moves them. */
  async function restart(): Promise<void> {
    await service?.stop();
    if (service) serviceOutputs.push(service.output());
    const dropIns = join(root, 'etc/systemd/system/mowability.service.d');
    mkdirSync(dropIns, { recursive: true });
    writeFileSync(
      join(dropIns, 'zz-test-ports.conf'),
      `[Service]\nEnvironment=MOWABILITY_HTTP_PORT=${ports.http}\nEnvironment=MOWABILITY_BROKER_PORT=${ports.broker}\n`,
    );
    service = await startSimulatedUnit(root, stubs);
  }

  async function run(block: string[]): Promise<void> {
    for (let i = 0; i < block.length; i++) {
      const line = (block[i] as string).replace(/\s+#.*$/, '').trim();
      if (line.startsWith('#')) continue;
      const command = line.replaceAll('sudo ', '');
      ran.push(command);
      // rtl_433 needs a radio: that its commands reach the configs beside them is test/config/rtl433Docs.test.ts.
      if (
        /^apt-get install/.test(command) ||
        /^journalctl /.test(command) ||
        command === 'systemctl daemon-reload' ||
        /^rtl_433 /.test(command)
      )
        continue;
      if (command === 'npm ci && npm pack') {
        const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', temp.dir], { cwd: ROOT, encoding: 'utf8' });
        expect(packed.status, packed.stderr).toBe(0);
      } else if (/^cd \/opt\/mowability && npm install --omit=dev$/.test(command)) {
        symlinkSync(join(ROOT, 'node_modules'), join(root, 'opt/mowability/node_modules'));
      } else if (/^systemctl (enable --now|restart) mowability$/.test(command)) {
        await restart();
      } else if (command === 'systemctl edit mowability') {
        const lines: string[] = [];
        while ((block[i + 1] ?? '').startsWith('#   ')) lines.push((block[++i] as string).slice(4).trim());
        writeFileSync(join(root, 'etc/systemd/system/mowability.service.d', `override.conf`), `${lines.join('\n')}\n`, { flag: 'a' });
      } else if (/^curl -s http:\/\/localhost:8080\//.test(command)) {
        const response = await fetch(command.replace(/^curl -s http:\/\/localhost:8080/, `http://127.0.0.1:${service?.httpPort}`));
        expect(response.status, command).toBe(200);
      } else if (command.startsWith('mowability ')) {
        const result = wrapper(command.slice('mowability '.length));
        expect(result.status, `${command}\n${result.stderr}`).toBe(0);
        wrapperOutputs.push(result.stdout);
      } else {
        sh(command);
      }
    }
  }

  it(
    'installs, starts, takes settings and secrets, and ends with /health 200 and a working key',
    async () => {
      mkdirSync(join(root, 'etc/systemd/system/mowability.service.d'), { recursive: true });
      // The environment-file block is the alternative to the credentials (both at once is refused): not run.
      const blocks = readmeShellBlocks().filter((block) => !(block[0] ?? '').startsWith('# /etc/'));
      expect(blocks.length).toBeGreaterThanOrEqual(6);
      for (const block of blocks) await run(block);
      expect(ran).toEqual(
        expect.arrayContaining([
          'systemctl enable --now mowability',
          'mowability keys add alice',
          'install -d -m 0700 /etc/mowability/credentials',
        ]),
      );
      const running = service as SimulatedService;

      // The first start told the admin the wrapper's command.
      expect(serviceOutputs[0]).toContain('No API key exists yet. Create one with: sudo mowability keys add <owner>');
      // Settings read by the dynamic user: the station of config.json exists; the secret came as a credential.
      expect(statSync(join(root, 'etc/mowability')).mode & 0o777).toBe(0o755);
      expect(statSync(join(root, 'etc/mowability/credentials')).mode & 0o777).toBe(0o700);
      const database = statSync(join(root, 'var/lib/mowability/mowability.db'));
      expect({ uid: database.uid, mode: database.mode & 0o777 }).toEqual({ uid: DYNAMIC_UID, mode: 0o600 });

      // The admin examples switched maintenance on; switch it off again. Then a key under the final
      // setup (broker on 0.0.0.0, its accounts a credential), and the whole check, which needs them:
      // the wrapper passes the unit's credentials on.
      for (const args of ['maintenance off', 'keys add bob', 'config']) {
        const result = wrapper(args);
        expect(result.status, `${args}\n${result.stderr}`).toBe(0);
        wrapperOutputs.push(result.stdout);
      }
      const base = `http://127.0.0.1:${running.httpPort}`;
      await waitUntil(async () => (await fetch(`${base}/health`)).status === 200, '/health 200');
      const health = (await (await fetch(`${base}/health`)).json()) as { mfi: { checks: { mqtt?: { status: string } } } };
      expect(health.mfi.checks.mqtt).toBeDefined();
      await waitUntil(
        async () => ((await (await fetch(`${base}/health`)).json()) as typeof health).mfi.checks.mqtt?.status === 'ok',
        'checks.mqtt ok',
      );

      // The broker listens on 0.0.0.0 with the account from the credential.
      const account = JSON.parse(readFileSync(join(root, 'etc/mowability/credentials/broker-users.json'), 'utf8')) as Array<{
        username: string;
        password: string;
      }>;
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${ports.broker}`, {
        username: account[0]?.username,
        password: account[0]?.password,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      await client.endAsync();

      // Every key from `sudo mowability keys add` works against the running daemon.
      const keys = wrapperOutputs.join('\n').match(/^mow_\S+$/gm) ?? [];
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const key of keys) {
        await waitUntil(async () => {
          const response = await fetch(`${base}/v1/calculate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ temperature: 18, precipitation_rate: 0 }),
          });
          return response.status === 200;
        }, 'a calculation with the key');
      }
    },
    STEPS_TIMEOUT_MS,
  );
});
