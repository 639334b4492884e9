/**
 * A file the daemon's user may not read, as after `install -d -m 0700 /etc/mowability` on a
 * service with DynamicUser=: the error says "cannot be read", naming the path that denies it and
 * the user, not "does not exist". The built CLI runs as another uid (root only: CI runs as root).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CONFIG } from '../../src/util/exitCodes.js';
import { assertBuilt, BUILT_CLI } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

/** In systemd's range for DynamicUser= (61184-65519), with no passwd entry here. */
const DYNAMIC_UID = 61234;
const NOBODY_UID = 65534;

describe.skipIf(userInfo().uid !== 0 && !process.env.CI)("a configuration the daemon's user cannot read", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let etc: string;

  beforeEach(() => {
    temp = makeTempDir();
    chmodSync(temp.dir, 0o755);
    etc = join(temp.dir, 'etc', 'mowability');
    mkdirSync(etc, { recursive: true, mode: 0o755 });
    chmodSync(join(temp.dir, 'etc'), 0o755);
    writeFileSync(join(etc, 'config.json'), '{"http": {"port": 8080}}\n', { mode: 0o644 });
  });
  afterEach(() => temp.cleanup());

  function configAs(uid: number, env: Record<string, string>) {
    if (userInfo().uid !== 0) throw new Error('runs the CLI as another user: run this test as root');
    assertBuilt();
    return spawnSync(process.execPath, [BUILT_CLI, 'config'], {
      uid,
      gid: uid,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', MOWABILITY_DB_PATH: join(temp.dir, 'db'), ...env },
    });
  }

  it('reads it when the directory is 0755 and the file 0644', () => {
    const result = configAs(DYNAMIC_UID, { MOWABILITY_CONFIG: join(etc, 'config.json') });
    expect(result.status, result.stderr).toBe(0);
  });

  it('names the directory that denies it (0700), its mode and owner, and the user', () => {
    chmodSync(etc, 0o700);
    const result = configAs(DYNAMIC_UID, { MOWABILITY_CONFIG: join(etc, 'config.json') });
    expect(result.status).toBe(EXIT_CONFIG);
    expect(result.stderr).toContain(
      `configuration file "${join(etc, 'config.json')}" cannot be read by uid ${DYNAMIC_UID}: permission denied on the directory "${etc}" (mode 0700, owner uid 0)`,
    );
    expect(result.stderr).not.toContain('does not exist');
  });

  it("names the file itself when only the file is private, with the user's name where it has one", () => {
    chmodSync(join(etc, 'config.json'), 0o600);
    const result = configAs(NOBODY_UID, { MOWABILITY_CONFIG: join(etc, 'config.json') });
    expect(result.status).toBe(EXIT_CONFIG);
    expect(result.stderr).toContain(`cannot be read by user "nobody" (uid ${NOBODY_UID}): permission denied (mode 0600, owner uid 0)`);
  });

  it('still says "does not exist" for a file that does not', () => {
    const result = configAs(DYNAMIC_UID, { MOWABILITY_CONFIG: join(etc, 'missing.json') });
    expect(result.status).toBe(EXIT_CONFIG);
    expect(result.stderr).toContain(`configuration file "${join(etc, 'missing.json')}" does not exist`);
  });

  it('names a credentials directory the user cannot list', () => {
    const credentials = join(temp.dir, 'credentials');
    mkdirSync(credentials, { mode: 0o700 });
    const result = configAs(DYNAMIC_UID, { CREDENTIALS_DIRECTORY: credentials });
    expect(result.status).toBe(EXIT_CONFIG);
    expect(result.stderr).toContain(
      `CREDENTIALS_DIRECTORY "${credentials}" cannot be read by uid ${DYNAMIC_UID}: permission denied (mode 0700, owner uid 0)`,
    );
  });
});
