/**
 * One timer a second for an idle daemon: the clock check's timer is the heartbeat that the
 * scheduler's calendar check, the event-loop delay sample and the access cache's change poll ride
 * (src/util/clockWatch.ts, `onTick`), and the access poll asks SQLite nothing while the database's
 * files are unchanged. Timers are faked where the test drives the heartbeat by hand.
 */
import { Registry } from 'prom-client';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventLoopSeriesName, registerEventLoopDelay } from '../../src/metrics/eventLoopDelay.js';
import { AccessCache, FULL_POLL_EVERY } from '../../src/store/accessCache.js';
import { Database } from '../../src/store/database.js';
import { DatabaseWatch } from '../../src/store/databaseWatch.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { systemClock } from '../../src/util/clock.js';
import { CLOCK_CHECK_INTERVAL_MS, ClockWatch, type TickSource } from '../../src/util/clockWatch.js';
import { createScheduler } from '../../src/util/scheduler.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { waitUntil } from '../helpers/wait.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { silentLogger } from '../helpers/mqttHarness.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';

/** A heartbeat the test beats by hand. */
function manualTicks(): { ticks: TickSource; beat(lateMs?: number): void; listeners: number } {
  const listeners = new Set<(lateMs: number) => void>();
  return {
    ticks: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    beat: (lateMs = 0) => {
      for (const listener of listeners) listener(lateMs);
    },
    get listeners() {
      return listeners.size;
    },
  };
}

describe('the clock check as the heartbeat', () => {
  afterEach(() => vi.useRealTimers());

  it('calls each listener once per check with how late it ran; a throwing listener costs only itself; unsubscribe stops it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const mono = {
      ms: 0,
      now() {
        return this.ms;
      },
    };
    const capture = captureLogger('info');
    const watch = new ClockWatch({ wall: { now: () => 1_800_000_000_000 + mono.ms }, monotonic: mono, logger: capture.logger });
    const late: number[] = [];
    let others = 0;
    watch.onTick(() => {
      throw new Error('listener bug');
    });
    const stop = watch.onTick((lateMs) => late.push(lateMs));
    watch.onTick(() => others++);
    await watch.start();
    mono.ms += CLOCK_CHECK_INTERVAL_MS;
    await vi.advanceTimersByTimeAsync(CLOCK_CHECK_INTERVAL_MS);
    mono.ms += CLOCK_CHECK_INTERVAL_MS + 250; // the loop was busy: the check ran 250 ms late
    await vi.advanceTimersByTimeAsync(CLOCK_CHECK_INTERVAL_MS);
    expect(late).toEqual([0, 250]);
    expect(others).toBe(2);
    expect(capture.lines().filter((line) => line.level === 50)).toHaveLength(2);
    stop();
    mono.ms += CLOCK_CHECK_INTERVAL_MS;
    await vi.advanceTimersByTimeAsync(CLOCK_CHECK_INTERVAL_MS);
    expect(late).toHaveLength(2);
    expect(others).toBe(3);
    await watch.stop();
  });

  it('the scheduler checks its calendar jobs on the heartbeat and starts no timer of its own for them', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const wall = {
      ms: Date.parse('2026-06-01T03:16:59Z'),
      now() {
        return this.ms;
      },
    };
    const heart = manualTicks();
    const scheduler = createScheduler(silentLogger, { timeZone: 'UTC', clock: wall, ticks: heart.ticks });
    let runs = 0;
    scheduler.add('prune', '17 3 * * *', () => runs++);
    scheduler.start();
    expect(vi.getTimerCount()).toBe(0);
    wall.ms += 1000; // 03:17:00
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(0); // no own timer: nothing checks until the heartbeat beats
    heart.beat();
    heart.beat();
    expect(runs).toBe(1);
    await scheduler.stop();
    expect(heart.listeners).toBe(0);
  });

  it('the event-loop delay series are the heartbeat’s lateness', async () => {
    const registry = new Registry();
    const heart = manualTicks();
    registerEventLoopDelay(registry, CLOCK_CHECK_INTERVAL_MS, heart.ticks);
    heart.beat(2);
    heart.beat(400);
    const text = parsePrometheusText(await registry.metrics());
    expect(sampleValue(text, eventLoopSeriesName('max'))).toBeCloseTo(0.4, 3);
    expect(sampleValue(text, eventLoopSeriesName('min'))).toBeCloseTo(0.002, 3);
  });
});

describe('the access cache poll on the heartbeat', () => {
  // Two connections to one temp database: the cache's, and another process's (the admin CLI).
  let temp: ReturnType<typeof makeTempDir>;
  let database: Database;
  let other: Database;
  let heart: ReturnType<typeof manualTicks>;
  let started: AccessCache | undefined;
  beforeEach(async () => {
    temp = makeTempDir();
    database = await Database.open(temp.dbPath);
    other = await Database.open(temp.dbPath);
    heart = manualTicks();
  });
  afterEach(async () => {
    await started?.stop();
    started = undefined;
    await other.close();
    await database.close();
    temp.cleanup();
  });
  /** The cache on the hand-beaten heartbeat (spy on `database` before calling this). */
  const newCache = (logger: Logger, pollIntervalMs?: number): AccessCache =>
    (started = new AccessCache({
      database,
      store: new ServiceStore(database, systemClock),
      logger,
      ticks: heart.ticks,
      ...(pollIntervalMs !== undefined && { pollIntervalMs }),
    }));
  /** A key added through the other connection, as the admin CLI adds one. */
  const addKeyElsewhere = (owner: string) => new ServiceStore(other, systemClock).addKey(owner);

  it('unwatched (no file notifications): asks SQLite nothing while the database files are unchanged, sees another connection’s commit at the next poll, and asks anyway every FULL_POLL_EVERY polls', async () => {
    vi.spyOn(database, 'watchChanges').mockReturnValue(undefined);
    const cache = newCache(silentLogger, 2000);
    await cache.start();
    const queries = vi.spyOn(database, 'dataVersion');
    heart.beat(); // every second beat polls (2000 ms)
    heart.beat();
    await cache.pollSettled();
    expect(queries).toHaveBeenCalledTimes(1); // the first poll takes the stamp and asks
    for (let i = 0; i < 2 * (FULL_POLL_EVERY - 2); i++) heart.beat();
    await cache.pollSettled();
    expect(queries).toHaveBeenCalledTimes(1);
    // The admin CLI adds a key through its own connection: the -wal moves, the next poll asks and reloads.
    const added = await addKeyElsewhere('bob');
    heart.beat();
    heart.beat();
    expect(queries.mock.calls.length).toBeGreaterThanOrEqual(2);
    await waitUntil(() => cache.lookupKey(added.key)?.owner === 'bob', 'the commit reloaded');
    // The safety net: FULL_POLL_EVERY unchanged polls later it asks again.
    const before = queries.mock.calls.length;
    for (let i = 0; i < 2 * FULL_POLL_EVERY; i++) heart.beat();
    await cache.pollSettled();
    expect(queries.mock.calls.length).toBe(before + 1);
    await cache.stop();
    expect(heart.listeners).toBe(0);
  });

  it('watched: no stat and no query while nothing is told; another connection’s commit is told and seen at the next poll; the safety net asks every FULL_POLL_EVERY polls', async () => {
    const cache = newCache(silentLogger);
    await cache.start();
    const queries = vi.spyOn(database, 'dataVersion');
    const stamps = vi.spyOn(database, 'changeStamp');
    for (let i = 0; i < FULL_POLL_EVERY - 1; i++) heart.beat();
    await cache.pollSettled();
    expect(stamps).not.toHaveBeenCalled();
    expect(queries).not.toHaveBeenCalled();
    heart.beat(); // the safety net
    await cache.pollSettled();
    expect(queries).toHaveBeenCalledTimes(1);
    // The admin CLI adds a key through its own connection: the kernel tells, the next beat asks and reloads.
    const added = await addKeyElsewhere('carol');
    await waitUntil(async () => {
      heart.beat();
      await cache.pollSettled();
      return cache.lookupKey(added.key)?.owner === 'carol';
    }, 'the told commit reloaded');
    expect(queries.mock.calls.length).toBeLessThanOrEqual(3);
    // Told changes were all consumed: quiet again until the safety net.
    const before = queries.mock.calls.length;
    for (let i = 0; i < FULL_POLL_EVERY - 1; i++) heart.beat();
    await cache.pollSettled();
    expect(queries.mock.calls.length).toBeLessThanOrEqual(before + 1);
    await cache.stop();
    expect(heart.listeners).toBe(0);
  });

  it('watched but never told (a file system without notifications): the safety net finds the files moved, reloads, and checks the files every poll from then on', async () => {
    const stopped = vi.fn();
    vi.spyOn(database, 'watchChanges').mockReturnValue(stopped);
    const capture = captureLogger('info');
    const cache = newCache(capture.logger);
    await cache.start();
    for (let i = 0; i < FULL_POLL_EVERY; i++) heart.beat(); // the first safety net takes the stamp
    await cache.pollSettled();
    const bob = await addKeyElsewhere('bob');
    for (let i = 0; i < FULL_POLL_EVERY - 1; i++) heart.beat();
    await cache.pollSettled();
    expect(cache.lookupKey(bob.key)).toBeUndefined(); // nothing told, nothing asked
    heart.beat();
    await waitUntil(() => cache.lookupKey(bob.key)?.owner === 'bob', 'the safety net reloaded');
    await waitUntil(() => stopped.mock.calls.length === 1, 'the watch stopped');
    expect(capture.lines().some((line) => String(line.msg).includes('not notified'))).toBe(true);
    // From now on the stamp is read every poll: the next commit is seen at the next beat.
    const dave = await addKeyElsewhere('dave');
    heart.beat();
    await waitUntil(() => cache.lookupKey(dave.key)?.owner === 'dave', 'the next beat reloaded');
  });

  it('a notification read in the same turn as the safety net (a write just before the beat) keeps the watch', async () => {
    const stopped = vi.fn();
    let tell: (() => void) | undefined;
    vi.spyOn(database, 'watchChanges').mockImplementation((onChange) => {
      tell = onChange;
      return stopped;
    });
    const cache = newCache(silentLogger);
    await cache.start();
    for (let i = 0; i < FULL_POLL_EVERY; i++) heart.beat(); // the first safety net takes the stamp
    await cache.pollSettled();
    const frank = await addKeyElsewhere('frank');
    for (let i = 0; i < FULL_POLL_EVERY; i++) heart.beat(); // the safety net sees the files moved, nothing told yet
    tell?.(); // the queued notification, read after the timers of this turn
    await waitUntil(() => cache.lookupKey(frank.key)?.owner === 'frank', 'the safety net reloaded');
    await cache.pollSettled();
    expect(stopped).not.toHaveBeenCalled();
  });

  it('never runs two polls at once: a beat while one is in flight skips it, and pollSettled() waits for the one in flight', async () => {
    vi.spyOn(database, 'watchChanges').mockReturnValue(undefined);
    const cache = newCache(silentLogger, CLOCK_CHECK_INTERVAL_MS);
    await cache.start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const dataVersion = database.dataVersion.bind(database);
    const queries = vi.spyOn(database, 'dataVersion').mockImplementation(async () => {
      await gate;
      return dataVersion();
    });
    heart.beat(); // the first poll takes the stamp and asks: held at the gate
    let settled = false;
    void cache.pollSettled().then(() => (settled = true));
    const gina = await addKeyElsewhere('gina'); // the files move: a second poll would ask too
    try {
      for (let i = 0; i < 3; i++) heart.beat();
      expect(queries).toHaveBeenCalledTimes(1);
      expect(settled).toBe(false);
    } finally {
      release(); // a failed expectation must not leave stop() waiting on the gate
    }
    await cache.pollSettled();
    expect(settled).toBe(true);
    expect(cache.lookupKey(gina.key)?.owner).toBe('gina');
  });

  it('a watch that fails later is closed and the files are checked every poll', async () => {
    let lose: (() => void) | undefined;
    vi.spyOn(database, 'watchChanges').mockImplementation((_onChange, onLost) => {
      lose = onLost;
      return () => undefined;
    });
    const cache = newCache(silentLogger);
    await cache.start();
    heart.beat();
    lose?.();
    heart.beat(); // takes the stamp
    await cache.pollSettled();
    const erin = await addKeyElsewhere('erin');
    heart.beat();
    await waitUntil(() => cache.lookupKey(erin.key)?.owner === 'erin', 'the next beat reloaded');
  });
});

describe('the database watch on the heartbeat', () => {
  it('checks the file every (interval / 1 s)-th beat with no timer of its own, and stops with the watch', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const heart = manualTicks();
      const problems = ['gone', null];
      let checks = 0;
      const capture = captureLogger('info');
      const watch = new DatabaseWatch({
        database: { path: '/x.db', problem: () => (checks++ === 0 ? problems[0]! : null) },
        logger: capture.logger,
        intervalMs: 3000,
      });
      watch.start(heart.ticks);
      expect(vi.getTimerCount()).toBe(0);
      heart.beat();
      heart.beat();
      expect(checks).toBe(0);
      heart.beat();
      expect(checks).toBe(1);
      expect(capture.lines().filter((line) => line.level === 50)).toHaveLength(1);
      for (let i = 0; i < 3; i++) heart.beat();
      expect(checks).toBe(2);
      watch.stop();
      expect(heart.listeners).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
