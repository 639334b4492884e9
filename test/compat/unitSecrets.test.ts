/**
 * The admin command sees the service's secrets: systemd/mowability passes the unit's credentials
 * (`LoadCredential=`) on to its run, as it passes the environment and the environment files, so a
 * secret the unit loads as a credential reaches `sudo mowability ...` as it reaches the service.
 * For each secret systemd/mowability.service suggests as a credential, and for the store's URL (a
 * key command on PostgreSQL needs it), a setup whose check needs the secret runs `sudo mowability config`
 * (which checks the whole configuration as the service's start does) through the wrapper, against
 * the simulated unit (test/helpers/unitSimulation.ts: stand-ins for systemctl and systemd-run that
 * answer from the unit and copy its credentials for the run). Needs root, as the wrapper does.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { writeServiceStubs, writeUnitAnswers } from '../helpers/unitSimulation.js';

const UNIT = fileURLToPath(new URL('../../systemd/mowability.service', import.meta.url));
const WRAPPER = fileURLToPath(new URL('../../systemd/mowability', import.meta.url));

/** For each secret the configuration check needs in some setup: the unit's environment of that setup, and the secret. */
const SETUPS: Record<string, { env: string[]; secret: string }> = {
  'broker.users': { env: ['MOWABILITY_BROKER_HOST=0.0.0.0'], secret: '[{"username": "rtl433", "password": "credential-secret-1"}]' },
  'store.url': { env: ['MOWABILITY_STORE_KIND=postgres'], secret: 'postgres://mowability:credential-secret-3@db.lan:5432/mowability' },
};
/** Secrets no check needs (the wrapper passes them like any credential: test/cli/serviceWrapper.test.ts), and why. */
const UNCHECKED: Record<string, string> = {
  'mqtt.password': 'an external broker may take a username without a password, so no setup fails without it',
};

/** The credential names of the unit's `LoadCredential=NAME:PATH` lines, commented out or not. */
function suggestedCredentials(unitText: string): string[] {
  return [...unitText.matchAll(/^#?\s*LoadCredential=([^:\s]+):/gm)].map((match) => match[1] ?? '');
}

describe.skipIf(userInfo().uid !== 0 && !process.env.CI)("the admin command and the unit's credentials", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let root: string;
  let stubs: string;

  beforeEach(() => {
    temp = makeTempDir('mow-unit-secrets-');
    root = join(temp.dir, 'root');
    stubs = join(temp.dir, 'stubs');
    mkdirSync(join(root, 'etc/systemd/system/mowability.service.d'), { recursive: true });
    copyFileSync(UNIT, join(root, 'etc/systemd/system/mowability.service'));
    writeServiceStubs(stubs);
  });
  afterEach(() => temp.cleanup());

  /** `sudo mowability config` for a setup that needs `name`, its secret loaded as a credential when `asCredential`. */
  function adminConfig(name: string, asCredential: boolean): { status: number | null; stdout: string; stderr: string } {
    const setup = SETUPS[name]!;
    const source = `/etc/mowability/credentials/${name}`;
    mkdirSync(join(root, 'etc/mowability/credentials'), { recursive: true, mode: 0o700 });
    writeFileSync(join(root, source), `${setup.secret}\n`, { mode: 0o600 });
    const lines = [
      '[Service]',
      ...setup.env.map((assignment) => `Environment=${assignment}`),
      ...(asCredential ? [`LoadCredential=${name}:${source}`] : []),
    ];
    writeFileSync(join(root, 'etc/systemd/system/mowability.service.d/override.conf'), `${lines.join('\n')}\n`);
    writeUnitAnswers(root, stubs);
    return spawnSync('bash', [WRAPPER, 'config', '--all'], {
      encoding: 'utf8',
      env: { PATH: `${stubs}:${process.env.PATH ?? ''}`, MOWABILITY_NODE: process.execPath, MOWABILITY_CLI: BUILT_CLI },
    });
  }

  it('covers every credential the unit suggests', () => {
    expect(existsSync(BUILT_CLI), 'npm run build first').toBe(true);
    const suggested = suggestedCredentials(readFileSync(UNIT, 'utf8'));
    expect(suggested.length).toBeGreaterThan(0);
    for (const name of suggested) expect(SETUPS[name] ?? UNCHECKED[name], `add a setup that needs ${name} to SETUPS`).toBeDefined();
  });

  it.each(Object.keys(SETUPS))('%s as a credential reaches `sudo mowability config`, which checks it as the service does', (name) => {
    const result = adminConfig(name, true);
    expect(result.status, result.stderr).toBe(0);
    // --all: store.kind and broker.users are public-service and broker settings the home view may leave out.
    expect(result.stdout).toContain('"kind"');
    // Printed redacted, never in clear.
    expect(result.stdout).not.toContain('credential-secret');
  });

  it('the same setup without the credential fails, naming the setting (the check can fail)', () => {
    const result = adminConfig('store.url', false);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/store\.url/);
  });
});
