/**
 * systemd/mowability, the admin wrapper for the service, with stand-ins for systemctl and
 * systemd-run on PATH (no systemd in the test machine): it must pass the unit's MOWABILITY_*
 * environment, environment files and credentials on, run as the unit's dynamic user, and forward
 * the arguments.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/httpTempDir.js';

const WRAPPER = fileURLToPath(new URL('../../systemd/mowability', import.meta.url));

describe.skipIf(userInfo().uid !== 0 && !process.env.CI)('systemd/mowability wrapper', () => {
  let temp: ReturnType<typeof makeTempDir>;

  beforeEach(() => {
    temp = makeTempDir();
    const stub = (name: string, body: string) => {
      writeFileSync(join(temp.dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(temp.dir, name), 0o755);
    };
    stub(
      'systemctl',
      `case "$*" in
  *--property=Environment\\ *) echo "NODE_ENV=production MOWABILITY_DB_PATH=/var/lib/mowability/mowability.db MOWABILITY_CONFIG=/etc/mowability/config.json" ;;
  *--property=EnvironmentFiles*) echo "/etc/mowability/env (ignore_errors=no)" ;;
  cat\\ *) cat "${temp.dir}/unit" ;;
esac`,
    );
    // The unit and a drop-in as `systemctl cat` prints them: a credential dropped by an empty assignment, one added after it.
    writeFileSync(
      join(temp.dir, 'unit'),
      [
        '# /etc/systemd/system/mowability.service',
        '[Service]',
        'LoadCredential=broker.users:/etc/mowability/credentials/broker-users.json',
        '# LoadCredential=commented:/out',
        '  LoadCredential=mqtt.password:/etc/mowability/credentials/mqtt-password',
        '',
        '# /etc/systemd/system/mowability.service.d/override.conf',
        '[Service]',
        'LoadCredential=',
        'LoadCredential=store.url:/etc/mowability/credentials/store-url',
        'LoadCredentialEncrypted=broker.users:/etc/mowability/credentials/broker-users.cred',
        '',
      ].join('\n'),
    );
    stub('systemd-run', 'for a in "$@"; do echo "$a"; done');
  });
  afterEach(() => temp.cleanup());

  it('runs the CLI as the service user with the unit environment and the given arguments', () => {
    if (userInfo().uid !== 0) throw new Error('the wrapper refuses non-root users; run this test as root');
    const result = spawnSync('bash', [WRAPPER, 'keys', 'add', 'alice'], {
      env: { PATH: `${temp.dir}:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      '--quiet',
      '--pipe',
      '--wait',
      '--collect',
      '-p',
      'DynamicUser=yes',
      '-p',
      'User=mowability',
      '-p',
      'StateDirectory=mowability',
      '-E',
      'MOWABILITY_DB_PATH=/var/lib/mowability/mowability.db',
      '-E',
      'MOWABILITY_CONFIG=/etc/mowability/config.json',
      '-p',
      'EnvironmentFile=-/etc/mowability/env',
      '-p',
      'LoadCredential=store.url:/etc/mowability/credentials/store-url',
      '-p',
      'LoadCredentialEncrypted=broker.users:/etc/mowability/credentials/broker-users.cred',
      '/usr/bin/node',
      '/opt/mowability/dist/cli/main.js',
      'keys',
      'add',
      'alice',
    ]);
  });
});
