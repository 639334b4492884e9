/**
 * The MQTT ingest benchmark's daemon process: the product's MQTT service
 * (embedded aedes broker, station parsing, histories, batched SQLite writes,
 * recompute and publish) composed as src/daemon.ts composes it, on a temp
 * database, with its counters reachable over IPC:
 *   sends {port} when ready; "stats" → MqttStats; "flush" → {flushed:true}; "stop" → exits.
 * argv[2]: JSON array of stations.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { createMqttService } from '../../src/mqtt/service.js';
import { Database } from '../../src/store/database.js';
import { makeTempDir, removeDir } from '../lib/tempDir.js';

async function main(): Promise<void> {
  const dir = makeTempDir();
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ stations: JSON.parse(process.argv[2] ?? '[]') as unknown }));
  const config = loadConfig({
    env: {
      MOWABILITY_CONFIG: configPath,
      MOWABILITY_DB_PATH: join(dir, 'bench.db'),
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_BROKER_HOST: '127.0.0.1',
      MOWABILITY_BROKER_PORT: '0',
    },
  });
  const logger = pino({ level: config.log.level });
  const database = await Database.open(config.db.path);
  const service = createMqttService({ config, database, logger });
  for (const component of service.components) await component.start();

  process.on('message', (message: unknown) => {
    void (async () => {
      if (message === 'stats') process.send?.(service.stats());
      else if (message === 'flush') {
        await service.flush();
        process.send?.({ flushed: true });
      } else if (message === 'stop') {
        for (const component of [...service.components].reverse()) await component.stop();
        await database.close();
        removeDir(dir);
        process.exit(0);
      }
    })();
  });
  process.send?.({ port: service.brokerPort() });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
