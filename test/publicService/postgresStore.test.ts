/**
 * The service stores on a real PostgreSQL (Debian's, on a temp directory and a
 * free port): migrations once under concurrency, NOTIFY, exactly-once
 * decisions, usage across instances (shared re-read, exact mode), and what an
 * outage does (StoreUnavailableError, kept counts, the listener reconnecting).
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExactKeyUsage } from '../../src/publicService/exactKeyUsage.js';
import { KeyUsage } from '../../src/publicService/keyUsage.js';
import { keyUsageDays } from '../../src/store/keyUsageDays.js';
import { PgDatabase } from '../../src/publicService/postgres/pgDatabase.js';
import { RegistrationError, RegistrationStore } from '../../src/publicService/registrationStore.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { StoreUnavailableError } from '../../src/store/sqlDatabase.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { waitFor } from '../helpers/httpTempDir.js';
import { PostgresServer, sharedServersMissing } from '../helpers/sharedServers.js';

const logger = pino({ level: 'silent' });
const NOW = Date.parse('2026-06-15T12:00:00Z');
const clock = { now: () => NOW };
const person = {
  name: 'Carol',
  email: 'carol@example.org',
  intendedUse: 'Testing',
  usageKind: 'private' as const,
  clientAddress: '192.0.2.1',
};

describe.skipIf(sharedServersMissing() !== undefined)('service stores on PostgreSQL', () => {
  let server: PostgresServer;
  let url: string;
  const opened: PgDatabase[] = [];
  const open = async (options: { listen?: boolean; rereadMs?: number } = {}) => {
    const db = await PgDatabase.open({ connectionString: url, logger, ...options });
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    server = await PostgresServer.start();
    url = await server.createDatabase('stores');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await server?.stop();
  });

  it('migrates once when instances start together, and announces key changes but not usage writes', async () => {
    const [a, b] = await Promise.all([open(), open({ listen: false })]);
    expect(await a.all('SELECT version FROM schema_migrations ORDER BY version')).toEqual([{ version: 1 }, { version: 2 }]);
    let heard = 0;
    const unsubscribe = a.subscribe(() => heard++);
    const version = await a.dataVersion();
    const { id } = await new ServiceStore(b, clock).addKey('announced');
    await waitFor(() => heard === 1);
    expect(await a.dataVersion()).toBe(version + 1);
    await b.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', ['2026-06-15T12:00:00.000Z', id]);
    await new ServiceStore(b, clock).blockAddress('203.0.113.0/24');
    // Notifications arrive in commit order: once the block's is here, the usage write's would be too.
    await waitFor(() => heard >= 2);
    expect(heard).toBe(2);
    unsubscribe();
    expect(await b.dataVersion()).toBe(0);
    expect(b.problem()).toBeNull();
  });

  it('keeps keys, rotation, blocks and settings as on SQLite', async () => {
    const store = new ServiceStore(await open({ listen: false }), clock);
    const created = await store.addKey('  Dana  ', { allowGet: true, note: 'n' });
    const rotated = await store.rotateKey(created.id, 3_600_000);
    expect(rotated).toMatchObject({ owner: 'Dana', oldKeyExpiresAt: '2026-06-15T13:00:00.000Z' });
    expect(await store.rotateKey(99_999, 1)).toBeUndefined();
    expect(await store.setKeyQuota(created.id, 5)).toBe(true);
    expect(await store.setKeyDisabled(99_999, true)).toBe(false);
    const credentials = await store.credentials();
    expect(credentials.find((c) => c.id === created.id)).toMatchObject({ allowGet: true, dailyQuota: 5, expiresAtMs: NOW + 3_600_000 });
    expect(await store.blockAddress('198.51.100.9')).toEqual({ cidr: '198.51.100.9/32', added: true });
    expect(await store.blockAddress('198.51.100.9')).toEqual({ cidr: '198.51.100.9/32', added: false });
    await store.setMaintenance(true);
    expect(await store.healthProbe()).toMatchObject({ maintenance: true });
    await store.setMaintenance(false);
  });

  it('decides a registration once, even when two operators approve at the same moment', async () => {
    const db = await open({ listen: false });
    const registrations = new RegistrationStore(db);
    const { id, claimToken } = await registrations.create(person, NOW, 86_400_000);
    const decisions = await Promise.allSettled([
      registrations.approve(id, NOW),
      new RegistrationStore(await open({ listen: false })).approve(id, NOW),
    ]);
    expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    const refused = decisions.find((d) => d.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(RegistrationError);
    expect((await db.all('SELECT id FROM api_keys WHERE note = ?', [`registration ${id}`])).length).toBe(1);
    expect(await registrations.claim(claimToken, NOW)).toMatchObject({ status: 'approved' });
    expect(await registrations.claim(claimToken, NOW)).toEqual({ status: 'claimed' });
    const other = await registrations.create(person, NOW, 86_400_000);
    await registrations.reject(other.id, NOW, 'no');
    await expect(registrations.reject(other.id, NOW)).rejects.toThrow(/is rejected, not pending/);
    expect(await registrations.purge(NOW + 1, NOW)).toBe(2);
  });

  it('keeps the pending limits exact when registrations arrive on two instances at once', async () => {
    const stores = [new RegistrationStore(await open({ listen: false })), new RegistrationStore(await open({ listen: false }))];
    const limits = { perKey: [{ name: 'address', max: 3, keyOf: (address: string) => address }], maxPending: 100 };
    const from = { ...person, clientAddress: '192.0.2.77' };
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, n) => stores[n % 2]!.createWithinLimits(from, limits, NOW, 86_400_000)),
    );
    expect(outcomes.filter((outcome) => 'id' in outcome)).toHaveLength(3);
    expect(outcomes.filter((outcome) => 'refused' in outcome && outcome.refused === 'address')).toHaveLength(5);
  });

  it('sums usage over instances and enforces the quota from the shared total (shared mode)', async () => {
    const [dbA, dbB] = [await open({ listen: false }), await open({ listen: false })];
    const { id } = await new ServiceStore(dbA, clock).addKey('shared quota');
    const credential = { id, owner: 'x', keyHash: '', disabled: false, allowGet: false, expiresAtMs: null, dailyQuota: 5 };
    const options = { logger, timeZone: 'UTC', defaultDailyQuota: 0, flushIntervalMs: 3_600_000 };
    const [a, b] = [new KeyUsage({ ...options, database: dbA }), new KeyUsage({ ...options, database: dbB })];
    await Promise.all([a.start(NOW), b.start(NOW)]);
    for (let n = 0; n < 3; n++) expect(a.admit(credential, NOW).ok).toBe(true);
    await a.flush();
    await b.flush();
    expect([b.admit(credential, NOW).ok, b.admit(credential, NOW).ok, b.admit(credential, NOW).ok]).toEqual([true, true, false]);
    await Promise.all([a.stop(), b.stop()]);
    expect(await keyUsageDays(dbA, id, '2026-06-01')).toEqual([{ day: '2026-06-15', requests: 5 }]);
  });

  it('holds the quota exactly across instances (exact mode), counts keys without one, and writes the last use', async () => {
    const [dbA, dbB] = [await open({ listen: false }), await open({ listen: false })];
    const store = new ServiceStore(dbA, clock);
    const limited = await store.addKey('exact');
    const open_ = await store.addKey('unlimited');
    const options = { logger, timeZone: 'UTC', defaultDailyQuota: 0, flushIntervalMs: 3_600_000 };
    const gates = [new ExactKeyUsage({ ...options, database: dbA }), new ExactKeyUsage({ ...options, database: dbB })];
    await Promise.all(gates.map((gate) => gate.start()));
    const credential = (id: number, dailyQuota: number | null) => ({
      id,
      owner: 'x',
      keyHash: '',
      disabled: false,
      allowGet: false,
      expiresAtMs: null,
      dailyQuota,
    });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => gates[n % 2]!.admit(credential(limited.id, 4), NOW)));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(4);
    expect(answers.find((answer) => !answer.ok)).toEqual({ ok: false, quota: 4, retryAfterSeconds: 12 * 3600 });
    for (let n = 0; n < 3; n++) expect((await gates[0]!.admit(credential(open_.id, null), NOW)).ok).toBe(true);
    await Promise.all(gates.map((gate) => gate.stop()));
    expect(await keyUsageDays(dbA, open_.id, '2026-06-15')).toEqual([{ day: '2026-06-15', requests: 3 }]);
    expect((await store.listKeys()).find((key) => key.id === limited.id)?.lastUsedAt).toBe('2026-06-15T12:00:00.000Z');
  });

  it('in an outage: StoreUnavailableError, counts kept, the CLI says so, and the listener reads everything again after', async () => {
    const listening = await open({ rereadMs: 3_600_000 });
    const db = await open({ listen: false });
    const { id } = await new ServiceStore(db, clock).addKey('outage');
    const usage = new KeyUsage({ database: db, logger, timeZone: 'UTC', defaultDailyQuota: 0, flushIntervalMs: 3_600_000 });
    await usage.start(NOW);
    const before = await listening.dataVersion();
    await server.halt();
    try {
      await expect(db.all('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(db.problem()).toMatch(/^PostgreSQL unreachable: /);
      usage.admit({ id, owner: 'x', keyHash: '', disabled: false, allowGet: false, expiresAtMs: null, dailyQuota: null }, NOW);
      await usage.flush();
      const cli = await runCliInProcess(['keys', 'list'], {
        MOWABILITY_STORE_KIND: 'postgres',
        MOWABILITY_STORE_URL: url,
        MOWABILITY_DB_PATH: '/nonexistent/x.db',
      });
      expect(cli).toMatchObject({ code: 1, stderr: expect.stringContaining('the shared store (PostgreSQL) is unreachable') });
    } finally {
      await server.resume();
    }
    await waitFor(async () => (await listening.dataVersion()) > before, 15_000);
    await usage.stop();
    expect(await keyUsageDays(db, id, '2026-06-15')).toEqual([{ day: '2026-06-15', requests: 1 }]);
    expect(db.problem()).toBeNull();
  }, 60_000);
});
