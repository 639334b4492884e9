/** A SQLite database in a fresh temp dir for each test of the calling describe; closed and removed after it. */
import { afterEach, beforeEach } from 'vitest';
import { Database } from '../../src/store/database.js';
import { makeTempDir } from './httpTempDir.js';

export interface TempDatabase {
  readonly dir: string;
  readonly dbPath: string;
  /** This test's open database (migrated by `Database.open`). */
  readonly db: Database;
}

/**
 * Opens the database before each test and closes it after each; a test's own afterEach hooks run first
 * (vitest runs after-hooks in reverse order), so they can still use it.
 */
export function useTempDatabase(): TempDatabase {
  let current: { temp: ReturnType<typeof makeTempDir>; db: Database } | undefined;
  beforeEach(async () => {
    const temp = makeTempDir();
    current = { temp, db: await Database.open(temp.dbPath) };
  });
  afterEach(async () => {
    await current?.db.close();
    current?.temp.cleanup();
    current = undefined;
  });
  const inTest = (): NonNullable<typeof current> => {
    if (!current) throw new Error('useTempDatabase: the database exists only inside a test');
    return current;
  };
  return {
    get dir() {
      return inTest().temp.dir;
    },
    get dbPath() {
      return inTest().temp.dbPath;
    },
    get db() {
      return inTest().db;
    },
  };
}
