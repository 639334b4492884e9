import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { DatabaseFileError } from '../../src/store/databaseFile.js';
import { assertBuilt } from '../helpers/httpCli.js';
import { useTempDir } from '../helpers/httpTempDir.js';

const BUILT_DATABASE = fileURLToPath(new URL('../../dist/store/database.js', import.meta.url));

/** Opens a database in a child process under `umask`, writes (so -wal and -shm exist) and reports the modes while it is open. */
function modesUnderUmask(umask: number, dbPath: string): Record<string, string> {
  assertBuilt();
  const script = `
    process.umask(${umask});
    const { Database } = await import(${JSON.stringify(BUILT_DATABASE)});
    const { statSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const path = ${JSON.stringify(dbPath)};
    const db = await Database.open(path);
    await db.run("INSERT INTO settings (key, value) VALUES ('x', 'y')");
    const mode = (file) => (statSync(file).mode & 0o777).toString(8);
    console.log(JSON.stringify({ dir: mode(dirname(path)), parent: mode(dirname(dirname(path))), db: mode(path), wal: mode(path + '-wal'), shm: mode(path + '-shm') }));
    await db.close();
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<string, string>;
}

describe('the database file', () => {
  const temp = useTempDir();

  it.each([
    ['022', 0o022],
    ['002', 0o002],
    ['000', 0o000],
  ])('regression: creates the directories 0700 and the DB, -wal and -shm 0600 under umask %s', (_label, umask) => {
    const dbPath = join(temp.dir, 'new', 'data', 'mowability.db');
    expect(modesUnderUmask(umask, dbPath)).toEqual({ parent: '700', dir: '700', db: '600', wal: '600', shm: '600' });
  });

  it('leaves the mode of an existing directory alone', () => {
    const existing = join(temp.dir, 'shared');
    mkdirSync(existing, { mode: 0o755 });
    const modes = modesUnderUmask(0o022, join(existing, 'mowability.db'));
    expect(modes.dir).toBe('755');
    expect(modes.db).toBe('600');
  });

  it('regression: with create: false a missing file is an error naming the path and the setting, and nothing is created', async () => {
    const dbPath = join(temp.dir, 'elsewhere', 'mowability.db');
    const opening = Database.open(dbPath, { create: false });
    await expect(opening).rejects.toBeInstanceOf(DatabaseFileError);
    await expect(opening).rejects.toThrow(`no database at ${dbPath}; this command does not create one`);
    await expect(opening).rejects.toThrow('MOWABILITY_DB_PATH or --db-path');
    expect(existsSync(dbPath)).toBe(false);
    expect(existsSync(join(temp.dir, 'elsewhere'))).toBe(false);
  });

  it('an open failure (SQLITE_CANTOPEN: the path is a directory) names the path, the cause and the setting', async () => {
    const opening = Database.open(temp.dir, { create: false });
    await expect(opening).rejects.toThrow(
      new RegExp(`^database ${temp.dir}: cannot open it .*SQLITE_CANTOPEN.*MOWABILITY_DB_PATH or --db-path`),
    );
  });

  it('a file that is not a database is named as such', async () => {
    const path = join(temp.dir, 'notes.txt');
    execFileSync('sh', [
      '-c',
      `printf 'this is not sqlite, just some text that is long enough to be a header....................................................' > '${path}'`,
    ]);
    await expect(Database.open(path, { create: false })).rejects.toThrow(/not a usable SQLite database.*SQLITE_NOTADB/);
    expect(statSync(path).size).toBeGreaterThan(0);
  });
});
