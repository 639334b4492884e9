import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/httpCli.js';
import { useTempDir } from '../helpers/httpTempDir.js';
// The commands' modules load here, at collection: `runCli` imports a command lazily, and the first
// import transforms the CLI's whole module graph (configuration, store, sqlite3): 5-15 s at load 13,
// which the first test's 20 s used to pay. Each command itself runs in < 0.1 s.
import '../../src/cli/commands/keys.js';
import '../../src/cli/commands/ip.js';
import '../../src/cli/commands/maintenance.js';

describe('admin commands never create an empty database', () => {
  const temp = useTempDir();

  it.each([
    [['keys', 'list']],
    [['keys', 'remove', '1']],
    [['ip', 'block', '203.0.113.7']],
    [['ip', 'list']],
    [['maintenance', 'on']],
    [['maintenance', 'status']],
  ])('regression: %j on a wrong path fails, names the path and how to point at the daemon database, creates nothing', async (argv) => {
    const dbPath = join(temp.dir, 'typo', 'mowability.db');
    const result = await runCliInProcess(argv, { MOWABILITY_DB_PATH: dbPath });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no database at ${dbPath}; this command does not create one`);
    expect(result.stderr).toContain('MOWABILITY_DB_PATH or --db-path');
    expect(existsSync(join(temp.dir, 'typo'))).toBe(false);
  });

  it('`keys add` creates the database (the first step of an installation), after which the others work', async () => {
    const env = { MOWABILITY_DB_PATH: temp.dbPath };
    expect((await runCliInProcess(['keys', 'add', 'alice'], env)).code).toBe(0);
    expect(await runCliInProcess(['maintenance', 'status'], env)).toMatchObject({ code: 0, stdout: 'Maintenance mode is off.\n' });
  });

  it('names the path given with --db-path', async () => {
    const dbPath = join(temp.dir, 'flag.db');
    const result = await runCliInProcess(['ip', 'list', `--db-path=${dbPath}`], {});
    expect(result.stderr).toContain(`no database at ${dbPath}`);
  });
});
