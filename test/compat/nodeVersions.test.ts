/**
 * The built daemon on the other Node.js majors users run (22 and 24; the rest of the suite runs on
 * the machine's Node): start, health, a keyed calculation, an MQTT reading in and the station state
 * out, and a clean stop. sqlite3 is a Node-API addon, so the build made by `npm ci` loads on every
 * major without a rebuild; this test is what shows that stays true.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPAT_NODE_MAJORS, compatNodeBinary, compatNodePresent } from '../helpers/compatNode.js';
import { runBuiltCli } from '../helpers/httpCli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';
import { RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { brokerPortOf } from '../helpers/robustnessProcess.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const required = Boolean(process.env.CI);
const KEY_PICKUP_DEADLINE_MS = 10_000;
const STATE_DEADLINE_MS = 15_000;
/** A start, a CLI run, a calculation and an MQTT round trip on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 60_000;

for (const major of COMPAT_NODE_MAJORS) {
  const present = compatNodePresent(major);
  if (!present && !required) {
    console.warn(
      `Node ${major} smoke test skipped: ${compatNodeBinary(major)} not found (run scripts/fetch-node.sh; with CI set it fails instead)`,
    );
  }

  // A built daemon on another Node, a CLI run and an MQTT round trip: 4 s on a quiet machine.
  describe.skipIf(!present && !required)(`Node ${major}`, { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
    const node = compatNodeBinary(major);
    let temp: ReturnType<typeof makeTempDir>;
    let daemon: DaemonProcess | undefined;
    let client: RecordingClient | undefined;

    beforeEach(() => {
      temp = makeTempDir();
    });
    afterEach(async () => {
      await client?.close();
      client = undefined;
      if (daemon && daemon.child.exitCode === null) await daemon.stop('SIGKILL');
      daemon = undefined;
      temp.cleanup();
    });

    it(
      'starts, answers health and a keyed calculation, bridges an MQTT reading and stops cleanly',
      async () => {
        if (!present) throw new Error(`${node} is missing: .ci/run fetches it with scripts/fetch-node.sh`);
        const configFile = join(temp.dir, 'config.json');
        writeFileSync(
          configFile,
          JSON.stringify({
            stations: [
              {
                id: 'garden',
                name: 'Garden',
                format: 'json',
                topic: 'sensors/garden',
                fields: { temperature: 'temp', precipitation_rate: 'rain' },
              },
            ],
          }),
        );
        const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_DB_CHANGE_POLL_INTERVAL_MS: '50' };
        daemon = await startDaemonProcess({ ...env, MOWABILITY_BROKER_ENABLED: 'true' }, ['--config', configFile], { node });
        const started = daemon.logLines().find((line) => line.msg === 'mowability starting');
        expect(String(started?.node)).toMatch(new RegExp(`^v${major}\\.`));
        expect(daemon.logLines().filter((line) => String(line.msg).startsWith('database migration')).length).toBeGreaterThan(0);

        const health = await fetch(`${daemon.baseUrl}/health`);
        expect(health.status).toBe(200);

        const added = await runBuiltCli(['keys', 'add', 'compat', '--json'], env, node);
        expect(added.code).toBe(0);
        const { key } = JSON.parse(added.stdout) as { key: string };
        const calculate = () =>
          fetch(`${daemon!.baseUrl}/v1/calculate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ temperature: 18, precipitation_rate: 0 }),
          });
        await waitFor(async () => (await calculate()).status === 200, KEY_PICKUP_DEADLINE_MS, 50);
        expect(((await (await calculate()).json()) as { status: string }).status).toBe('ok');

        client = await RecordingClient.connect(await brokerPortOf(daemon));
        await client.client.subscribeAsync('mowability/#', { qos: 1 });
        await client.client.publishAsync('sensors/garden', JSON.stringify({ temp: 19.5, rain: 0 }), { qos: 1 });
        // The station's state is published once before any reading (empty input); wait for the one carrying ours.
        const state = () => client!.json('mowability/garden/state') as { input?: { temperature?: number }; status?: string } | undefined;
        await waitUntil(() => state()?.input?.temperature === 19.5, 'station state with the reading', STATE_DEADLINE_MS);
        expect(daemon.logLines().some((line) => line.msg === 'first reading from station "garden"')).toBe(true);
        expect(state()).toMatchObject({
          station: 'garden',
          index_score: expect.any(Number),
          input: { temperature: 19.5, precipitation_rate: 0 },
        });

        await client.close();
        client = undefined;
        expect(await daemon.stop('SIGTERM')).toBe(0);
      },
      TEST_TIMEOUT_MS,
    );
  });
}
