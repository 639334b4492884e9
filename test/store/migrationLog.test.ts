import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { migrationsAppliedSince } from '../../src/store/migrationLog.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { useTempDir } from '../helpers/httpTempDir.js';

describe('migrationsAppliedSince', () => {
  const temp = useTempDir();

  it('lists every migration a fresh database got, and none on the next open', async () => {
    const first = new Date().toISOString();
    const fresh = await Database.open(temp.dbPath);
    expect((await migrationsAppliedSince(fresh, first)).map((m) => m.version)).toEqual(
      MIGRATIONS.map((m) => m.version).sort((a, b) => a - b),
    );
    await fresh.close();

    const second = new Date(Date.now() + 1).toISOString();
    const reopened = await Database.open(temp.dbPath);
    expect(await migrationsAppliedSince(reopened, second)).toEqual([]);
    await reopened.close();
  });
});
