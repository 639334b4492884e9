import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessCache } from '../../src/store/accessCache.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { systemClock } from '../../src/util/clock.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/mqttHarness.js';

describe('AccessCache failures are logged, not swallowed', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let database: Database;
  let cache: AccessCache | undefined;

  beforeEach(async () => {
    temp = makeTempDir();
    database = await Database.open(temp.dbPath);
  });
  afterEach(async () => {
    await cache?.stop();
    await database.close();
    temp.cleanup();
  });

  it('a reload after a change that fails is logged once (throttled) and the last snapshot stays in use', async () => {
    const capture = captureLogger('info');
    const store = new ServiceStore(database, systemClock);
    const first = await store.addKey('alice');
    cache = new AccessCache({ database, store, logger: capture.logger, pollIntervalMs: 20 });
    await cache.start();
    expect(cache.lookupKey(first.key)?.owner).toBe('alice');

    // The blocks table disappears under the daemon: every reload now fails.
    await database.exec('DROP TABLE blocked_addresses');
    for (const owner of ['bob', 'carol', 'dave']) await store.addKey(owner);
    const failures = () => capture.lines().filter((line) => String(line.msg).startsWith('could not reload keys'));
    await waitUntil(() => failures().length > 0, 'the failed reload logged');
    // Further change notifications and polls while the failure lasts add no lines.
    await store.addKey('erin');
    // Reloads coalesce: awaiting one waits for the reload that change started (and any follow-up).
    await cache.reload().catch(() => undefined);
    await cache.reload().catch(() => undefined);
    expect(failures()).toHaveLength(1);
    expect(failures()[0]).toMatchObject({
      level: 40,
      module: 'access-cache',
      err: expect.objectContaining({ message: expect.stringMatching(/no such table: blocked_addresses/) }),
    });
    expect(cache.lookupKey(first.key)?.owner).toBe('alice');
  });
});
