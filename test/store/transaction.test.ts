/**
 * Database.transaction: work that fails half-way leaves nothing behind (the statements before
 * the failure are rolled back), the caller gets the original error, and the next transaction,
 * also one queued behind the failed one, runs normally.
 */
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { mqttTest } from '../helpers/mqttFixture.js';

const settings = async (db: Database): Promise<Array<{ key: string; value: string }>> =>
  db.all('SELECT key, value FROM settings ORDER BY key');

describe('Database.transaction', () => {
  mqttTest('rolls back every statement of failed work and rethrows its error; queued work still commits', async ({ mqtt }) => {
    const db = await Database.open(mqtt.dbPath);
    mqtt.defer(() => db.close());
    await db.transaction((tx) => tx.run("INSERT INTO settings (key, value) VALUES ('kept', 'before')"));

    const failing = db.transaction(async (tx) => {
      await tx.run("INSERT INTO settings (key, value) VALUES ('half', 'written')");
      await tx.run("UPDATE settings SET value = 'changed' WHERE key = 'kept'");
      throw new Error('work failed half-way');
    });
    // Queued behind the failing one: it must not land inside the rolled-back transaction.
    const queued = db.transaction((tx) => tx.run("INSERT INTO settings (key, value) VALUES ('queued', 'after')"));
    await expect(failing).rejects.toThrow('work failed half-way');
    await queued;

    expect(await settings(db)).toEqual([
      { key: 'kept', value: 'before' },
      { key: 'queued', value: 'after' },
    ]);
    expect(db.problem()).toBeNull(); // a bug in the work is not a failing disk
  });

  it('rolls back a failing statement (a constraint) and keeps the database writable', async () => {
    const db = await Database.open(':memory:');
    try {
      await db.transaction((tx) => tx.run("INSERT INTO settings (key, value) VALUES ('k', 'v')"));
      await expect(
        db.transaction(async (tx) => {
          await tx.run("INSERT INTO settings (key, value) VALUES ('other', 'x')");
          await tx.run("INSERT INTO settings (key, value) VALUES ('k', 'duplicate')");
        }),
      ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT' });
      expect(await settings(db)).toEqual([{ key: 'k', value: 'v' }]);
      await db.transaction((tx) => tx.run("INSERT INTO settings (key, value) VALUES ('other', 'y')"));
      expect(await settings(db)).toEqual([
        { key: 'k', value: 'v' },
        { key: 'other', value: 'y' },
      ]);
    } finally {
      await db.close();
    }
  });
});
