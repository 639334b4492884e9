/** The pure parts of the PostgreSQL store: placeholders, error kinds, outage logging, backoff, config rules. */
import { describe, expect, it } from 'vitest';
import { crossKeyProblems } from '../../src/config/crossKeyRules.js';
import { loadConfig } from '../../src/config/load.js';
import { isConnectionError, isTimeoutError, numberPlaceholders } from '../../src/publicService/postgres/pgDatabase.js';
import { backoffMs, Outage } from '../../src/publicService/postgres/outage.js';
import { connectRateLimitStore } from '../../src/publicService/sharedServers.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { freePort } from '../../bench/lib/mosquitto.js';

describe('PostgreSQL store helpers', () => {
  it('numbers ? placeholders, leaving strings, quoted names and comments alone', () => {
    expect(numberPlaceholders('SELECT ? , ?')).toBe('SELECT $1 , $2');
    expect(numberPlaceholders(`SELECT '?', "a?b", ? -- what?\n, ? /* ? */ , 'it''s ?', ?`)).toBe(
      `SELECT '?', "a?b", $1 -- what?\n, $2 /* ? */ , 'it''s ?', $3`,
    );
    expect(numberPlaceholders("SELECT 'open ?")).toBe("SELECT 'open ?");
    expect(numberPlaceholders('SELECT ? -- end')).toBe('SELECT $1 -- end');
    expect(numberPlaceholders('SELECT ? /* open')).toBe('SELECT $1 /* open');
  });

  it('tells a lost server from a failing statement', () => {
    expect(isConnectionError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('shutdown'), { code: '57P01' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('broken'), { code: '08006' }))).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionError(new Error('registration 1 is rejected, not pending'))).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
  });

  it('tells a server that does not answer in time (a stall) from one that refuses', () => {
    const stalls = [
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      new Error('Query read timeout'),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const err of stalls) expect([isConnectionError(err), isTimeoutError(err)]).toEqual([true, true]);
    expect(isTimeoutError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isTimeoutError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  it('logs an outage once when it starts and once when it ends', () => {
    const log = captureLogger('info');
    let now = 1000;
    const outage = new Outage(log.logger, 'PostgreSQL (store.url)', () => now);
    outage.succeeded();
    expect(outage.sinceMs).toBeUndefined();
    for (let n = 0; n < 5; n++) outage.failed(new Error(`refused ${n}`));
    expect([outage.sinceMs, outage.lastError]).toEqual([1000, 'refused 4']);
    now = 13_400;
    outage.succeeded();
    outage.succeeded();
    expect(log.lines().map((line) => line.msg)).toEqual([
      'PostgreSQL (store.url) unreachable; retrying with backoff (logged again when it is back)',
      'PostgreSQL (store.url) reachable again after 12 s',
    ]);
    outage.failed('text');
    expect(outage.lastError).toBe('text');
  });

  it('backs off exponentially up to a cap', () => {
    expect([0, 1, 2, 3, 10, -1].map((attempt) => backoffMs(attempt))).toEqual([250, 500, 1000, 2000, 10_000, 250]);
  });

  it('needs a postgres URL for store.kind postgres and a redis URL for the rate-limit store, without echoing them', () => {
    const base = loadConfig({ env: { MOWABILITY_DB_PATH: '/tmp/x.db' } });
    const problems = crossKeyProblems({
      ...base,
      store: { ...base.store, kind: 'postgres', url: 'mysql://secret@db' },
      http: { ...base.http, rateLimitStore: 'memcache://secret@x' },
    });
    expect(problems).toEqual([
      expect.stringContaining('"store.kind" = "postgres" needs "store.url"'),
      '"http.rateLimitStore" must be empty or a redis:// or rediss:// URL',
    ]);
    expect(problems.join(' ')).not.toContain('secret');
    expect(
      crossKeyProblems({
        ...base,
        store: { ...base.store, kind: 'postgres', url: 'postgres://u:p@db:5432/mow' },
        http: { ...base.http, rateLimitStore: 'rediss://cache:6380' },
      }),
    ).toEqual([]);
  });

  it('refuses to start when Redis cannot be reached, naming the setting and not the URL', async () => {
    const port = await freePort();
    const config = loadConfig({
      env: { MOWABILITY_DB_PATH: '/tmp/x.db', MOWABILITY_RATE_LIMIT_STORE: `redis://:hunter2@127.0.0.1:${port}` },
    });
    const started = connectRateLimitStore(config, captureLogger('silent').logger);
    await expect(started).rejects.toThrow(/^Redis \(http\.rateLimitStore\) cannot be reached: /);
    await expect(started).rejects.not.toThrow(/hunter2/);
  });
});
