import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Database } from '../../src/store/database.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { AccessCache } from '../../src/store/accessCache.js';
import { hashApiKey, API_KEY_PREFIX } from '../../src/store/apiKeyCodec.js';
import { waitFor } from '../helpers/httpTempDir.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const clock = { now: () => Date.parse('2026-05-01T10:00:00Z') };
const logger = pino({ level: 'silent' });
/** Deadline for changes that usually show up within milliseconds; waits return as soon as they do. */
const CHANGE_DEADLINE_MS = 10_000;

describe('ServiceStore and AccessCache on a real SQLite file', () => {
  const database = useTempDatabase();
  let db: Database;
  let store: ServiceStore;

  beforeEach(async () => {
    db = database.db;
    store = new ServiceStore(db, clock);
  });

  it('stores only the SHA-256 of a new key, never the key itself', async () => {
    const created = await store.addKey('alice', { note: 'garden' });
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(created.key.length).toBeGreaterThan(40);
    const rows = await db.all<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key_hash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(rows)).not.toContain(created.key);
    const listed = await store.listKeys();
    expect(listed).toEqual([
      {
        id: created.id,
        owner: 'alice',
        createdAt: '2026-05-01T10:00:00.000Z',
        disabled: false,
        allowGet: false,
        note: 'garden',
        expiresAt: null,
        dailyQuota: null,
        lastUsedAt: null,
      },
    ]);
  });

  it('generates a different key every time', async () => {
    const first = await store.addKey('a');
    const second = await store.addKey('a');
    expect(first.key).not.toBe(second.key);
  });

  it('rejects an empty owner', async () => {
    await expect(store.addKey('  ')).rejects.toThrow(/owner/);
  });

  it('disables, enables, switches GET and removes keys by id, reporting unknown ids', async () => {
    const { id } = await store.addKey('bob');
    expect(await store.setKeyDisabled(id, true)).toBe(true);
    expect(await store.setKeyAllowGet(id, true)).toBe(true);
    expect((await store.listKeys())[0]).toMatchObject({ disabled: true, allowGet: true });
    expect(await store.setKeyDisabled(id + 100, true)).toBe(false);
    expect(await store.removeKey(id)).toBe(true);
    expect(await store.listKeys()).toEqual([]);
    expect(await store.removeKey(id)).toBe(false);
  });

  it('normalises blocked addresses and ranges and refuses garbage', async () => {
    expect(await store.blockAddress('10.1.2.3/8')).toEqual({ cidr: '10.0.0.0/8', added: true });
    expect(await store.blockAddress('10.0.0.0/8')).toEqual({ cidr: '10.0.0.0/8', added: false });
    expect(await store.blockAddress('2001:db8::1')).toEqual({ cidr: '2001:db8::1/128', added: true });
    expect((await store.listBlocks()).map((b) => b.cidr).sort()).toEqual(['10.0.0.0/8', '2001:db8::1/128']);
    await expect(store.blockAddress('not-an-ip')).rejects.toThrow(/not an IPv4\/IPv6 address/);
    expect(await store.unblockAddress('10.0.0.0/8')).toEqual({ cidr: '10.0.0.0/8', removed: true });
    expect(await store.unblockAddress('10.0.0.0/8')).toEqual({ cidr: '10.0.0.0/8', removed: false });
  });

  it('keeps the maintenance flag and mfi_version in settings', async () => {
    expect(await store.healthProbe()).toEqual({ maintenance: false, mfiVersion: null });
    await store.setMaintenance(true);
    await store.setSetting('mfi_version', '1.2.3');
    expect(await store.healthProbe()).toEqual({ maintenance: true, mfiVersion: '1.2.3' });
    await store.setMaintenance(false);
    expect(await store.isMaintenance()).toBe(false);
  });

  describe('AccessCache', () => {
    let cache: AccessCache;
    afterEach(async () => {
      await cache.stop();
    });

    it('authenticates by key hash and matches IPv4, IPv6 and IPv4-mapped clients against blocks', async () => {
      const created = await store.addKey('carol', { allowGet: true });
      await store.blockAddress('192.0.2.0/24');
      await store.blockAddress('2001:db8::/32');
      cache = new AccessCache({ database: db, store, logger });
      await cache.start();
      expect(cache.lookupKey(created.key)).toMatchObject({ id: created.id, owner: 'carol', allowGet: true, disabled: false });
      expect(cache.lookupKey(`${created.key}x`)).toBeUndefined();
      expect(cache.lookupKey('')).toBeUndefined();
      expect(cache.isBlocked('192.0.2.77')).toBe(true);
      expect(cache.isBlocked('::ffff:192.0.2.77')).toBe(true);
      expect(cache.isBlocked('192.0.3.1')).toBe(false);
      expect(cache.isBlocked('2001:db8:abcd::1')).toBe(true);
      expect(cache.isBlocked('::1')).toBe(false);
    });

    it('sees changes written through the same store at once', async () => {
      cache = new AccessCache({ database: db, store, logger, pollIntervalMs: 60_000 });
      await cache.start();
      const created = await store.addKey('dave');
      await waitFor(() => cache.lookupKey(created.key) !== undefined, CHANGE_DEADLINE_MS);
    });

    it('picks up keys, blocks and maintenance committed by another connection (another process) without a restart', async () => {
      cache = new AccessCache({ database: db, store, logger, pollIntervalMs: 50 });
      await cache.start();
      const other = await Database.open(database.dbPath);
      try {
        const otherStore = new ServiceStore(other, clock);
        const created = await otherStore.addKey('erin');
        await otherStore.blockAddress('198.51.100.9');
        await otherStore.setMaintenance(true);
        await waitFor(
          () => cache.lookupKey(created.key) !== undefined && cache.isBlocked('198.51.100.9') && cache.maintenance,
          CHANGE_DEADLINE_MS,
        );
        await otherStore.setKeyDisabled(created.id, true);
        await waitFor(() => cache.lookupKey(created.key)?.disabled === true, CHANGE_DEADLINE_MS);
        await otherStore.removeKey(created.id);
        await waitFor(() => cache.lookupKey(created.key) === undefined, CHANGE_DEADLINE_MS);
      } finally {
        await other.close();
      }
    });
  });
});
