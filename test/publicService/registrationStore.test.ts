import { beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { hashApiKey } from '../../src/store/apiKeyCodec.js';
import { RegistrationError, RegistrationStore, type NewRegistration } from '../../src/publicService/registrationStore.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const alice: NewRegistration = {
  name: 'Alice',
  email: 'alice@example.org',
  intendedUse: 'My garden robot mower',
  usageKind: 'private',
  clientAddress: '192.0.2.1',
};

describe('RegistrationStore', () => {
  const database = useTempDatabase();
  let db: Database;
  let store: RegistrationStore;

  beforeEach(async () => {
    db = database.db;
    store = new RegistrationStore(db);
  });

  it('never creates a key by itself; approval does, and the key is collected exactly once', async () => {
    const { id, claimToken } = await store.create(alice, NOW, 14 * DAY);
    expect(await db.all('SELECT * FROM api_keys')).toEqual([]);
    expect(await store.claim(claimToken, NOW + 1000)).toEqual({ status: 'pending', expiresAt: new Date(NOW + 14 * DAY).toISOString() });

    const approved = await store.approve(id, NOW + DAY, { allowGet: true, note: 'ok' });
    const keys = await db.all<{ id: number; owner: string; key_hash: string; allow_get: number }>(
      'SELECT id, owner, key_hash, allow_get FROM api_keys',
    );
    expect(keys).toEqual([{ id: approved.keyId, owner: 'Alice <alice@example.org>', key_hash: expect.any(String), allow_get: 1 }]);

    const first = await store.claim(claimToken, NOW + 2 * DAY);
    if (first.status !== 'approved') throw new Error(`expected approved, got ${first.status}`);
    expect(hashApiKey(first.key)).toBe(keys[0]!.key_hash);
    expect(await store.claim(claimToken, NOW + 2 * DAY)).toEqual({ status: 'claimed' });
    // Nothing that could recover the key stays behind.
    expect(await db.get('SELECT seal_public, seal_private, sealed_key FROM registrations WHERE id = ?', [id])).toEqual({
      seal_public: null,
      seal_private: null,
      sealed_key: null,
    });
  });

  it('hands out the key once even to concurrent claims', async () => {
    const { id, claimToken } = await store.create(alice, NOW, DAY);
    await store.approve(id, NOW);
    const results = await Promise.all([store.claim(claimToken, NOW), store.claim(claimToken, NOW), store.claim(claimToken, NOW)]);
    expect(results.filter((result) => result.status === 'approved')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'claimed')).toHaveLength(2);
  });

  it('reports a rejection with its reason, and finds nothing for wrong or expired tokens', async () => {
    const { id, claimToken } = await store.create(alice, NOW, DAY);
    await store.reject(id, NOW, 'commercial use needs a contract');
    expect(await store.claim(claimToken, NOW)).toEqual({ status: 'rejected', reason: 'commercial use needs a contract' });
    expect(await store.claim(`${claimToken}x`, NOW)).toEqual({ status: 'unknown' });
    const late = await store.create(alice, NOW, DAY);
    expect(await store.claim(late.claimToken, NOW + DAY)).toEqual({ status: 'unknown' });
    await expect(store.approve(late.id, NOW + DAY)).rejects.toThrow(RegistrationError);
    await expect(store.approve(id, NOW)).rejects.toThrow(/is rejected, not pending/);
    await expect(store.reject(999, NOW)).rejects.toThrow(/no registration has id 999/);
  });

  it('counts pending registrations per key and in all within the insert, and purges decided ones', async () => {
    const sameFirstOctet = { name: 'octet', max: 2, keyOf: (address: string) => address.split('.')[0]! };
    const limits = { perKey: [sameFirstOctet], maxPending: 3 };
    expect(await store.createWithinLimits(alice, limits, NOW, DAY)).toMatchObject({ id: 1, pending: 1 });
    expect(await store.createWithinLimits({ ...alice, clientAddress: '192.0.2.99' }, limits, NOW, DAY)).toMatchObject({
      id: 2,
      pending: 2,
    });
    expect(await store.createWithinLimits(alice, limits, NOW, DAY)).toEqual({ refused: 'octet' });
    const other = await store.createWithinLimits({ ...alice, clientAddress: '198.51.100.7' }, limits, NOW, DAY);
    expect(other).toMatchObject({ id: 3, pending: 3 });
    expect(await store.createWithinLimits({ ...alice, clientAddress: '203.0.113.9' }, limits, NOW, DAY)).toEqual({ refused: 'paused' });
    // Expired registrations count for nothing.
    expect(await store.createWithinLimits(alice, limits, NOW + DAY, DAY)).toMatchObject({ id: 4, pending: 1 });
    await store.reject(4, NOW + DAY);
    expect(await store.purge(NOW + 1, NOW + 2 * DAY)).toBe(3);
    expect((await store.list()).map((registration) => registration.id)).toEqual([4]);
  });

  it('counts and inserts as one step: concurrent registrations against a limit of 3 make 3', async () => {
    const limits = { perKey: [{ name: 'address', max: 3, keyOf: (address: string) => address }], maxPending: 100 };
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => store.createWithinLimits(alice, limits, NOW, DAY)));
    expect(outcomes.filter((outcome) => 'id' in outcome)).toHaveLength(3);
    expect(outcomes.filter((outcome) => 'refused' in outcome)).toEqual([{ refused: 'address' }, { refused: 'address' }]);
    expect(await store.list({ pending: true })).toHaveLength(3);
  });
});
