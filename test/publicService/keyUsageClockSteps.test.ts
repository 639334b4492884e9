/**
 * Per-key daily quotas and usage across wall-clock steps (a Pi without a real-time clock, then NTP),
 * in both quota modes on SQLite: a step back does not grant a second day of quota, a step forward
 * does not reset it, and the day the requests were wrongly booked on does not start exhausted.
 */
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { ExactKeyUsage } from '../../src/publicService/exactKeyUsage.js';
import type { Admission } from '../../src/http/auth.js';
import { KeyUsage } from '../../src/publicService/keyUsage.js';
import { keyUsageDays } from '../../src/store/keyUsageDays.js';
import { ServiceStore, type ApiKeyCredential } from '../../src/store/serviceStore.js';
import type { ClockStep } from '../../src/util/clockWatch.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const silent = pino({ level: 'silent' });
const DAY = 86_400_000;
// Noon in Berlin on the 16th: the clock one day ahead of the real 15th.
const AHEAD = Date.parse('2026-06-16T10:00:00Z');

interface Gate {
  start(nowMs: number): Promise<void>;
  stop(): Promise<void>;
  flush(): Promise<void>;
  admit(credential: ApiKeyCredential, nowMs: number): Admission | Promise<Admission>;
  clockStepped(step: ClockStep): Promise<void>;
}

const step = (deltaMs: number, atMs: number): ClockStep => ({ deltaMs, direction: deltaMs > 0 ? 'forward' : 'back', atMs });

describe.each([
  ['kept in memory (keys.quotaMode shared)', KeyUsage],
  ['counted in the row (keys.quotaMode exact)', ExactKeyUsage],
])('key usage across clock steps, %s', (_mode, Kind) => {
  const database = useTempDatabase();
  let db: Database;
  let credential: ApiKeyCredential;
  let gate: Gate;

  beforeEach(async () => {
    db = database.db;
    const store = new ServiceStore(db, { now: () => AHEAD });
    const key = await store.addKey('quota tester');
    credential = { ...(await store.credentials()).find((entry) => entry.id === key.id)!, dailyQuota: 3 };
    gate = new Kind({ database: db, logger: silent, timeZone: 'Europe/Berlin', defaultDailyQuota: 0, flushIntervalMs: 3_600_000 }) as Gate;
    await gate.start(AHEAD);
  });
  afterEach(async () => {
    await gate.stop();
  });

  const ok = async (nowMs: number): Promise<boolean> => (await gate.admit(credential, nowMs)).ok;
  const useUp = async (nowMs: number): Promise<void> => {
    for (let i = 0; i < 3; i++) expect(await ok(nowMs)).toBe(true);
    expect(await ok(nowMs)).toBe(false);
    // Written before the step (the re-dating then corrects stored rows too).
    await gate.flush();
  };
  const stored = async () => {
    await gate.flush();
    return keyUsageDays(db, credential.id, '2026-01-01');
  };

  it('a step back a day grants no second quota, and the next real day starts from zero', async () => {
    await useUp(AHEAD);
    const now = AHEAD - DAY;
    await gate.clockStepped(step(-DAY, now));
    expect(await ok(now)).toBe(false);
    const rows = await stored();
    expect(rows.find((row) => row.day === '2026-06-15')?.requests).toBe(3);
    expect(rows.find((row) => row.day === '2026-06-16')?.requests ?? 0).toBe(0);
    // The real 16th comes: its quota is whole.
    expect(await ok(AHEAD + 60_000)).toBe(true);
  });

  it('a step forward two days keeps the quota used', async () => {
    const behind = AHEAD - 2 * DAY;
    await useUp(behind);
    await gate.clockStepped(step(2 * DAY, AHEAD));
    expect(await ok(AHEAD)).toBe(false);
    expect((await stored()).find((row) => row.day === '2026-06-16')?.requests).toBe(3);
  });

  it('a request counted after the step but before it was seen comes along too', async () => {
    for (let i = 0; i < 2; i++) expect(await ok(AHEAD)).toBe(true);
    const now = AHEAD - DAY;
    expect(await ok(now)).toBe(true);
    await gate.clockStepped(step(-DAY, now + 500));
    expect(await ok(now + 600)).toBe(false);
    expect((await stored()).find((row) => row.day === '2026-06-15')?.requests).toBe(3);
  });

  it('a step within the day moves nothing', async () => {
    await useUp(AHEAD);
    await gate.clockStepped(step(-3_600_000, AHEAD - 3_600_000));
    expect(await ok(AHEAD - 3_600_000)).toBe(false);
    expect(await stored()).toEqual([{ day: '2026-06-16', requests: 3 }]);
  });
});
