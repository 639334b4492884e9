/**
 * The MQTT ingest benchmark's daemon process: the daemon exactly as `serve` composes it
 * (src/daemon.ts startDaemon: database, API keys, HTTP, the station side with its units, the
 * embedded aedes broker, batched SQLite writes, recompute and publish), on a temp database and
 * ephemeral ports, with the station side's counters reachable over IPC. It loads the build in
 * dist/ (`npm run bench` builds it first), the code an install runs; package.json beside it gives
 * the version, as in an install:
 *   sends {port} (the broker's) when ready; "stats" → MqttStats; "flush" → {flushed:true}; "stop" → exits.
 * argv[2]: JSON array of stations.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type * as ConfigModule from '../../src/config/load.js';
import type * as DaemonModule from '../../src/daemon.js';
import { makeTempDir, removeDir } from '../lib/tempDir.js';

/** dist-bench/bench/servers/ → the repository's dist/. */
const DIST = new URL('../../../dist/', import.meta.url);

async function main(): Promise<void> {
  const { loadConfig } = (await import(new URL('config/load.js', DIST).href)) as typeof ConfigModule;
  const { startDaemon } = (await import(new URL('daemon.js', DIST).href)) as typeof DaemonModule;
  const dir = makeTempDir();
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ stations: JSON.parse(process.argv[2] ?? '[]') as unknown }));
  const config = loadConfig({
    env: {
      MOWABILITY_CONFIG: configPath,
      MOWABILITY_DB_PATH: join(dir, 'bench.db'),
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_HOST: '127.0.0.1',
      MOWABILITY_BROKER_PORT: '0',
    },
  });
  const daemon = await startDaemon({ config, logger: pino({ level: config.log.level }) });
  const side = daemon.station;

  process.on('message', (message: unknown) => {
    void (async () => {
      if (message === 'stats') process.send?.(daemon.mqtt.stats());
      else if (message === 'flush') {
        await side.flush();
        process.send?.({ flushed: true });
      } else if (message === 'stop') {
        await daemon.stop();
        removeDir(dir);
        process.exit(0);
      }
    })();
  });
  process.send?.({ port: daemon.mqtt.brokerPort() });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
