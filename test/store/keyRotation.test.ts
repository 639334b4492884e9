import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessCache } from '../../src/store/accessCache.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const DAY = 86_400_000;

describe('key rotation and expiry', () => {
  const database = useTempDatabase();
  let db: Database;
  let now = NOW;
  let store: ServiceStore;
  let access: AccessCache;

  beforeEach(async () => {
    db = database.db;
    now = NOW;
    store = new ServiceStore(db, { now: () => now });
    access = new AccessCache({ database: db, store, logger: pino({ level: 'silent' }), now: () => now });
    await access.start();
  });
  afterEach(async () => {
    await access.stop();
  });

  it('keeps the old key working through the grace period, then refuses it as unknown', async () => {
    const old = await store.addKey('alice', { allowGet: true });
    await store.setKeyQuota(old.id, 500);
    const rotated = (await store.rotateKey(old.id, 7 * DAY))!;
    await access.reload();
    expect(rotated).toMatchObject({ owner: 'alice', allowGet: true, oldKeyExpiresAt: new Date(NOW + 7 * DAY).toISOString() });
    expect(access.lookupKey(rotated.key)).toMatchObject({ owner: 'alice', allowGet: true, dailyQuota: 500, expiresAtMs: null });
    now = NOW + 7 * DAY - 1;
    expect(access.lookupKey(old.key)?.id).toBe(old.id);
    now = NOW + 7 * DAY;
    expect(access.lookupKey(old.key)).toBeUndefined();
    expect(access.lookupKey(rotated.key)?.id).toBe(rotated.id);
  });

  it('never lengthens an earlier expiry, and an expiry can be set and cleared', async () => {
    const key = await store.addKey('bob');
    await store.setKeyExpiry(key.id, new Date(NOW + DAY).toISOString());
    const rotated = (await store.rotateKey(key.id, 7 * DAY))!;
    expect(rotated.oldKeyExpiresAt).toBe(new Date(NOW + DAY).toISOString());
    await store.setKeyExpiry(rotated.id, new Date(NOW - 1).toISOString());
    await access.reload();
    expect(access.lookupKey(rotated.key)).toBeUndefined();
    await store.setKeyExpiry(rotated.id, null);
    await access.reload();
    expect(access.lookupKey(rotated.key)?.id).toBe(rotated.id);
    expect(await store.rotateKey(999, DAY)).toBeUndefined();
  });
});
