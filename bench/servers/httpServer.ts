/**
 * The HTTP benchmark's server process: the real app from buildApp() on a temp
 * SQLite file, with two bench-only baseline routes registered on the returned
 * instance before listen (the product code is unchanged):
 *   GET  /bench/bare  a schema'd {ok:true}
 *   POST /bench/raw   parses the JSON body, no auth, no schema
 * A valid key is created through the product's key store. Sends
 * {port, key} to the parent over IPC; exits on "stop".
 */
import { join } from 'node:path';
import pino from 'pino';
import { MFI_VERSION } from '../../src/core/index.js';
import { loadConfig } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import { AccessCache } from '../../src/store/accessCache.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore, SETTING_MFI_VERSION } from '../../src/store/serviceStore.js';
import { systemClock } from '../../src/util/clock.js';
import { makeTempDir, removeDir } from '../lib/tempDir.js';
import { waitFor } from '../lib/time.js';

async function main(): Promise<void> {
  const dir = makeTempDir();
  const config = loadConfig({
    env: {
      MOWABILITY_DB_PATH: join(dir, 'bench.db'),
      MOWABILITY_TIMEZONE: 'Europe/Berlin',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      // Raised, not disabled: the plugin stays on the measured path without ever refusing a request.
      MOWABILITY_RATE_LIMIT_MAX: '1000000000',
    },
  });
  // The daemon's default level: one info line per request, written to stdout (discarded by the parent).
  const logger = pino({ level: config.log.level });
  const db = await Database.open(config.db.path);
  const store = new ServiceStore(db, systemClock);
  await store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
  const access = new AccessCache({ database: db, store, logger });
  await access.start();
  const { key } = await store.addKey('bench');
  await waitFor(() => access.lookupKey(key) !== undefined, { timeoutMs: 5000, what: 'the new key in the access cache' });

  const app = await buildApp({ config, store, access, logger, clock: systemClock });
  app.get('/bench/bare', { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, async () => ({
    ok: true,
  }));
  app.post('/bench/raw', async (request) => ({ fields: Object.keys((request.body as object | null) ?? {}).length }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  process.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void (async () => {
      await app.close();
      await access.stop();
      await db.close();
      removeDir(dir);
      process.exit(0);
    })();
  });
  process.send?.({ port, key });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
