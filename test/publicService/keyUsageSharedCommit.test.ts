import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { KeyUsage } from '../../src/publicService/keyUsage.js';
import { keyUsageDays } from '../../src/store/keyUsageDays.js';
import { ServiceStore, type ApiKeyCredential } from '../../src/store/serviceStore.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const silent = pino({ level: 'silent' });
const NOON = Date.parse('2026-06-15T10:00:00Z');

// The daemon's SQLite file with a station history driving the commits (sharedCommit.ts): the counts ride in its commits.
describe("KeyUsage in the history's shared commit", () => {
  const database = useTempDatabase();
  let db: Database;
  let credential: ApiKeyCredential;
  let commits: number;
  let wakes: number;

  beforeEach(async () => {
    db = database.db;
    const store = new ServiceStore(db, { now: () => NOON });
    const key = await store.addKey('household client');
    credential = (await store.credentials()).find((entry) => entry.id === key.id)!;
    commits = 0;
    wakes = 0;
    const original = db.transaction.bind(db);
    db.transaction = (work) => {
      commits++;
      return original(work);
    };
  });

  const counting = () =>
    new KeyUsage({
      database: db,
      logger: silent,
      timeZone: 'UTC',
      defaultDailyQuota: 0,
      flushIntervalMs: 3_600_000,
      sharedCommit: db.sharedCommit,
    });
  const stored = () => keyUsageDays(db, credential.id, '2026-06-01');
  const lastUsed = async () =>
    (await db.get<{ last_used_at: string | null }>('SELECT last_used_at FROM api_keys WHERE id = ?', [credential.id]))?.last_used_at;

  it('makes no commit of its own: a flush wakes the driver, whose next commit writes the counts', async () => {
    const release = db.sharedCommit.drive(() => wakes++);
    const usage = counting();
    await usage.start(NOON);
    for (let i = 0; i < 3; i++) usage.admit(credential, NOON + i);
    expect(wakes).toBe(1);
    await usage.flush();
    expect(commits).toBe(0);
    expect(await stored()).toEqual([]);
    // The history writer's commit (historyStore.save) carries them.
    expect(await db.sharedCommit.commit()).toBe(true);
    expect(commits).toBe(1);
    expect(await stored()).toEqual([{ day: '2026-06-15', requests: 3 }]);
    expect(await lastUsed()).toBe(new Date(NOON + 2).toISOString());
    // Nothing counted since: the next commit has nothing of the key usage's.
    expect(await db.sharedCommit.commit()).toBe(false);
    release();
    await usage.stop();
  });

  it('gives the counts back when the shared commit fails, merged with those counted since', async () => {
    const release = db.sharedCommit.drive(() => wakes++);
    const usage = counting();
    await usage.start(NOON);
    usage.admit(credential, NOON);
    usage.admit(credential, NOON);
    await expect(db.sharedCommit.commit(() => Promise.reject(new Error('disk I/O error')))).rejects.toThrow('disk I/O error');
    expect(await stored()).toEqual([]);
    usage.admit(credential, NOON + 5);
    await db.sharedCommit.commit();
    expect(await stored()).toEqual([{ day: '2026-06-15', requests: 3 }]);
    expect(await lastUsed()).toBe(new Date(NOON + 5).toISOString());
    release();
    await usage.stop();
  });

  it('writes at once on stop, even while a driver still commits, and alone once no history drives', async () => {
    const release = db.sharedCommit.drive(() => wakes++);
    const usage = counting();
    await usage.start(NOON);
    usage.admit(credential, NOON);
    await usage.stop();
    expect(commits).toBe(1);
    expect(await stored()).toEqual([{ day: '2026-06-15', requests: 1 }]);

    release();
    const undriven = counting();
    await undriven.start(NOON);
    undriven.admit(credential, NOON);
    await undriven.flush();
    expect(commits).toBe(2);
    expect(await stored()).toEqual([{ day: '2026-06-15', requests: 2 }]);
    await undriven.stop();
    expect(commits).toBe(2);
    expect(wakes).toBe(1);
  });

  it('keeps the counts when its own commit fails, and writes them with the next one', async () => {
    const usage = counting();
    await usage.start(NOON);
    usage.admit(credential, NOON);
    const original = db.transaction.bind(db);
    db.transaction = () => Promise.reject(new Error('database is locked'));
    await usage.flush();
    db.transaction = original;
    usage.admit(credential, NOON);
    await usage.stop();
    expect(await stored()).toEqual([{ day: '2026-06-15', requests: 2 }]);
  });
});
