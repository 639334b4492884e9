import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { KeyUsage } from '../../src/publicService/keyUsage.js';
import { keyUsageDays } from '../../src/store/keyUsageDays.js';
import { ServiceStore, type ApiKeyCredential } from '../../src/store/serviceStore.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const silent = pino({ level: 'silent' });
// 2026-06-15 23:00 CEST; midnight in Berlin is one hour later.
const LATE = Date.parse('2026-06-15T21:00:00Z');
const HOUR = 3_600_000;

describe('KeyUsage', () => {
  const database = useTempDatabase();
  let db: Database;
  let credential: ApiKeyCredential;
  let writes: number;

  beforeEach(async () => {
    db = database.db;
    const store = new ServiceStore(db, { now: () => LATE });
    const key = await store.addKey('quota tester');
    credential = (await store.credentials()).find((entry) => entry.id === key.id)!;
    writes = 0;
  });

  const usage = (defaultDailyQuota: number) => {
    const counting = new KeyUsage({
      database: db,
      logger: silent,
      timeZone: 'Europe/Berlin',
      defaultDailyQuota,
      flushIntervalMs: 3_600_000,
    });
    const original = db.transaction.bind(db);
    db.transaction = (work) => {
      writes++;
      return original(work);
    };
    return counting;
  };

  it('refuses once the quota is used up, with Retry-After until midnight in the configured zone, and starts over the next day', async () => {
    const counter = usage(3);
    await counter.start(LATE);
    expect([1, 2, 3].map(() => counter.admit(credential, LATE).ok)).toEqual([true, true, true]);
    expect(counter.admit(credential, LATE + 1000)).toEqual({ ok: false, quota: 3, retryAfterSeconds: 3599 });
    // A key's own quota overrides the configured one; 0 means none.
    expect(counter.admit({ ...credential, dailyQuota: 0 }, LATE).ok).toBe(true);
    expect(counter.admit(credential, LATE + HOUR).ok).toBe(true);
    await counter.stop();
    expect(await keyUsageDays(db, credential.id, '2026-06-01')).toEqual([
      { day: '2026-06-16', requests: 1 },
      { day: '2026-06-15', requests: 4 },
    ]);
  });

  it('writes at most once per flush, nothing when idle, and its counts survive a restart', async () => {
    const counter = usage(5);
    await counter.start(LATE);
    for (let i = 0; i < 50; i++) counter.admit({ ...credential, dailyQuota: 0 }, LATE);
    expect(writes).toBe(0);
    await counter.flush();
    await counter.flush();
    expect(writes).toBe(1);
    await counter.stop();
    expect(writes).toBe(1);
    const lastUsed = await db.get<{ last_used_at: string }>('SELECT last_used_at FROM api_keys WHERE id = ?', [credential.id]);
    expect(lastUsed?.last_used_at).toBe(new Date(LATE).toISOString());

    // After a restart the day's stored count still counts against the quota.
    const restarted = usage(51);
    await restarted.start(LATE);
    expect(restarted.admit(credential, LATE).ok).toBe(true);
    expect(restarted.admit(credential, LATE).ok).toBe(false);
    await restarted.stop();
  });

  it('keeps the counts when a write fails and writes them with the next one', async () => {
    const counter = usage(0);
    await counter.start(LATE);
    counter.admit(credential, LATE);
    const original = db.transaction.bind(db);
    db.transaction = () => Promise.reject(new Error('disk full'));
    await counter.flush();
    db.transaction = original;
    counter.admit(credential, LATE);
    await counter.stop();
    expect(await keyUsageDays(db, credential.id, '2026-06-15')).toEqual([{ day: '2026-06-15', requests: 2 }]);
  });
});
