import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon } from '../../src/daemon.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/wait.js';

// The composition root hands the key usage the SQLite connection's shared commit (src/publicService/plug.ts, startKeyUsage).
describe("the daemon's key usage on SQLite", () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it("reaches the disk with the history's commit, long before its own flush interval", async () => {
    const setup = await Database.open(temp.dbPath);
    const key = await new ServiceStore(setup, { now: () => Date.now() }).addKey('household client');
    await setup.close();
    const env = {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_PORT: '0',
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_KEYS_USAGE_FLUSH_SECONDS: '3600',
      MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: '1',
    };
    const daemon = await startDaemon({ config: loadConfig({ env }), logger: captureLogger('warn').logger });
    const reader = await Database.open(temp.dbPath);
    try {
      const answer = await fetch(`${daemon.httpAddress}/v1/calculate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: '{"temperature":18,"precipitation_rate":0}',
      });
      expect(answer.status).toBe(200);
      const requests = async () =>
        (await reader.get<{ n: number }>('SELECT COALESCE(SUM(requests), 0) AS n FROM key_usage WHERE key_id = ?', [key.id]))?.n;
      await waitUntil(async () => (await requests()) === 1, "the count in key_usage within the history's 1 s flush interval");
    } finally {
      await reader.close();
      await daemon.stop();
    }
  });
});
