import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CREDENTIAL_SETTINGS } from '../../src/config/credentials.js';
import { EXIT_CONFIG } from '../../src/config/load.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { UNIT_FILE } from '../helpers/sandbox.js';

/** The sandbox's exposure score (systemd-analyze security, 0 = locked down, 10 = none) when this test was written. */
const MAX_EXPOSURE = 1.5;

const unitText = readFileSync(UNIT_FILE, 'utf8');

function directives(name: string, { commented = false } = {}): string[] {
  const prefix = commented ? `# ${name}=` : `${name}=`;
  return unitText
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

describe('systemd/mowability.service', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let unitCopy: string;

  beforeEach(() => {
    temp = makeTempDir();
    unitCopy = join(temp.dir, 'mowability.service');
    // systemd-analyze verify checks that ExecStart's binary exists; node may live elsewhere on this machine.
    writeFileSync(unitCopy, unitText.replaceAll('/usr/bin/node ', `${process.execPath} `));
  });
  afterEach(() => temp.cleanup());

  it('starts after the clock is synchronised where systemd knows it (time-sync.target), without requiring it', () => {
    expect(directives('Wants')).toContain('time-sync.target');
    expect(directives('After')).toContain('time-sync.target');
    expect(directives('Requires')).not.toContain('time-sync.target');
  });

  it('passes systemd-analyze verify without a warning', () => {
    const result = spawnSync('systemd-analyze', ['verify', unitCopy], { encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it(`keeps the sandbox's exposure at or below ${MAX_EXPOSURE} (systemd-analyze security)`, () => {
    const result = spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', unitCopy], { encoding: 'utf8' });
    const exposure = /Overall exposure level for mowability\.service: ([\d.]+)/.exec(result.stdout)?.[1];
    expect(exposure, result.stdout + result.stderr).toBeDefined();
    expect(Number(exposure)).toBeLessThanOrEqual(MAX_EXPOSURE);
  });

  it('does not restart after a configuration error, and bounds memory, tasks and files', () => {
    expect(directives('RestartPreventExitStatus')).toEqual([String(EXIT_CONFIG)]);
    expect(directives('MemoryMax')).toHaveLength(1);
    expect(directives('TasksMax')).toHaveLength(1);
    expect(directives('LimitNOFILE')).toHaveLength(1);
  });

  it('names only credentials the daemon reads', () => {
    const names = directives('LoadCredential', { commented: true }).map((value) => value.slice(0, value.indexOf(':')));
    // The store and rate-limit URLs are read from credentials too, but the unit suggests the environment file for them (test/compat/unitSecrets.test.ts).
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !(CREDENTIAL_SETTINGS as readonly string[]).includes(name))).toEqual([]);
  });
});
