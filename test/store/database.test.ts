import { describe, expect, it } from 'vitest';
import { Database, BUSY_FAILURES_BEFORE_ERROR } from '../../src/store/database.js';
import { useTempDir } from '../helpers/httpTempDir.js';

describe('a database that stays busy', () => {
  const temp = useTempDir();

  it(`counts as failing after ${BUSY_FAILURES_BEFORE_ERROR} busy writes in a row, not after one`, async () => {
    const holder = await Database.open(temp.dbPath);
    const victim = await Database.open(temp.dbPath, { busyTimeoutMs: 10 });
    await holder.exec('BEGIN IMMEDIATE');
    const write = () => victim.transaction((db) => db.run("INSERT INTO settings (key, value) VALUES ('k', 'v')"));
    for (let attempt = 1; attempt <= BUSY_FAILURES_BEFORE_ERROR; attempt++) {
      await expect(write()).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      if (attempt < BUSY_FAILURES_BEFORE_ERROR) expect(victim.problem()).toBeNull();
    }
    expect(victim.problem()).toMatch(/the last 3 writes failed \(SQLITE_BUSY/);
    await holder.exec('ROLLBACK');
    await write();
    expect(victim.problem()).toBeNull();
    await victim.close();
    await holder.close();
  });
});
