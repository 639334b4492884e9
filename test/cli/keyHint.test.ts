/**
 * The first start's "Create one with: …" command where the plain `npx mowability … --db-path` hint
 * was wrong: inside a container (the CLI runs there, through `docker exec`) and with store.kind
 * postgres (the keys live in PostgreSQL; a --db-path command made a key in a new local SQLite file
 * that the daemon never reads). The PostgreSQL case runs the hint's own arguments, with the owner
 * and the URL filled in, and finds the key in PostgreSQL.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { daemonKeyHint, keyCommandHint } from '../../src/cli/commands/serve.js';
import { loadConfig } from '../../src/config/load.js';
import { PgDatabase } from '../../src/publicService/postgres/pgDatabase.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { systemClock } from '../../src/util/clock.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { PostgresServer, sharedServersMissing } from '../helpers/sharedServers.js';

const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');

/** A shell's words of a hint (single quotes only, as shellQuote writes them). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

describe('the first-start key hint', () => {
  it("inside a container runs the image's CLI through docker exec, on the absolute database path", () => {
    expect(keyCommandHint({ dbPath: 'data/mowability.db', cwd: '/app', underSystemd: false, inContainer: true })).toBe(
      'docker exec <container> node dist/cli/main.js keys add <owner> --db-path=/app/data/mowability.db',
    );
  });

  it("inside a container with PostgreSQL leaves the store to the container's environment", () => {
    expect(
      keyCommandHint({ dbPath: '/data/mowability.db', cwd: '/app', underSystemd: false, inContainer: true, storeKind: 'postgres' }),
    ).toBe('docker exec <container> node dist/cli/main.js keys add <owner>');
  });

  it("under systemd names the wrapper whatever the store (it passes the unit's environment files on)", () => {
    expect(keyCommandHint({ dbPath: '/var/lib/mowability/mowability.db', cwd: '/', underSystemd: true, storeKind: 'postgres' })).toBe(
      'sudo mowability keys add <owner>',
    );
  });

  it('knows our image by the marker its Dockerfile sets, read like any setting; a clone in any other container gets the ordinary hint', () => {
    // The runtime stage's marker line, as the image's environment has it (the stage "container"; the
    // add-on stage after it and the last FROM only choose between them).
    const start = dockerfile.indexOf(' AS container\n');
    const runtime = dockerfile.slice(start, dockerfile.indexOf('\nFROM ', start));
    const marker = /^ENV (MOWABILITY_CONTAINER_IMAGE)=(\S+)$/m.exec(runtime);
    expect(marker, "the Dockerfile's runtime stage sets MOWABILITY_CONTAINER_IMAGE").not.toBeNull();
    const image = loadConfig({ env: { [marker![1]!]: marker![2]!, MOWABILITY_DB_PATH: '/data/mowability.db' } });
    expect(daemonKeyHint(image, undefined, {}, '/app')).toBe(
      'docker exec <container> node dist/cli/main.js keys add <owner> --db-path=/data/mowability.db',
    );
    // A CI job or a devcontainer running a clone (Docker's /.dockerenv there, but not our image): npx works there, docker exec does not.
    const clone = loadConfig({ env: {} });
    expect(daemonKeyHint(clone, undefined, {}, '/tmp/clone')).toBe(
      'npx mowability keys add <owner> --db-path=/tmp/clone/data/mowability.db',
    );
    // systemd wins over the marker (the wrapper runs the CLI as the service's user).
    expect(daemonKeyHint(image, undefined, { INVOCATION_ID: 'x' }, '/')).toBe('sudo mowability keys add <owner>');
  });

  describe.skipIf(sharedServersMissing() !== undefined)('with store.kind postgres, started by hand', () => {
    const temp = makeTempDir('mow-keyhint-');
    let server: PostgresServer;
    let url: string;

    beforeAll(async () => {
      server = await PostgresServer.start();
      url = await server.createDatabase('keyhint');
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      temp.cleanup();
    });

    const owners = async (): Promise<string[]> => {
      const db = await PgDatabase.open({ connectionString: url, logger: pino({ level: 'silent' }), listen: false });
      try {
        return (await new ServiceStore(db, systemClock).listKeys()).map((key) => key.owner);
      } finally {
        await db.close();
      }
    };

    it('the hint, with the owner and URL filled in, adds the key where the daemon reads it', async () => {
      const hint = keyCommandHint({ dbPath: temp.dbPath, cwd: temp.dir, underSystemd: false, storeKind: 'postgres' });
      expect(hint).toBe("npx mowability keys add <owner> --store-kind=postgres '--store-url=<store.url as the daemon has it>'");
      const argv = words(hint)
        .slice(2)
        .map((word) => (word === '<owner>' ? 'alice' : word.startsWith('--store-url=') ? `--store-url=${url}` : word));
      const result = await runCliInProcess(argv, {});
      expect(result.code, result.stderr).toBe(0);
      expect(await owners()).toEqual(['alice']);
    });

    it('the SQLite hint it replaces would not have: its key lands in a local file', async () => {
      const result = await runCliInProcess(['keys', 'add', 'bob', `--db-path=${temp.dbPath}`], {});
      expect(result.code, result.stderr).toBe(0);
      expect(await owners()).not.toContain('bob');
    });
  });
});
