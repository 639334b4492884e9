/**
 * The secrets systemd/mowability.service suggests as credentials (`LoadCredential=`) must be ones
 * the admin command can do without: systemd/mowability passes the unit's environment and
 * environment files on, not its credentials (test/cli/serviceWrapper.test.ts), and the admin
 * commands load their configuration with `secretsOptional` (src/cli/context.ts). For each suggested
 * credential, the configuration of a setup that uses it is loaded as the admin command would, without
 * the secret: it must load. The PostgreSQL URL fails this (a key command cannot find the store), so
 * the unit puts it in the environment file, as docs/deployment.md does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';

const UNIT = fileURLToPath(new URL('../../systemd/mowability.service', import.meta.url));

/** For each secret the unit may suggest as a credential: the environment of a setup that uses it. */
const SETUPS_USING: Record<string, Record<string, string>> = {
  'broker.users': { MOWABILITY_BROKER_HOST: '0.0.0.0' },
  'mqtt.password': { MOWABILITY_MQTT_URL: 'mqtt://broker.lan:1883', MOWABILITY_MQTT_USERNAME: 'mowability' },
  'store.url': { MOWABILITY_STORE_KIND: 'postgres' },
};

/** The credential names of the unit's `LoadCredential=NAME:PATH` lines, commented out or not. */
function suggestedCredentials(unitText: string): string[] {
  return [...unitText.matchAll(/^#?\s*LoadCredential=([^:\s]+):/gm)].map((match) => match[1] ?? '');
}

function loadsForAdmin(env: Record<string, string>): string | undefined {
  try {
    loadConfig({ env: { MOWABILITY_DB_PATH: '/tmp/unused.db', ...env }, secretsOptional: true, units: stationUnitConfigs() });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the credentials systemd/mowability.service suggests', () => {
  const suggested = suggestedCredentials(readFileSync(UNIT, 'utf8'));

  it('are secrets the admin command loads its configuration without', () => {
    expect(suggested.length).toBeGreaterThan(0);
    for (const name of suggested) {
      const setup = SETUPS_USING[name];
      expect(setup, `add a setup that uses ${name} to SETUPS_USING`).toBeDefined();
      expect(loadsForAdmin(setup ?? {}), name).toBeUndefined();
    }
  });

  it('the check fails for the store URL, which the unit once suggested as a credential', () => {
    expect(suggestedCredentials('# LoadCredential=store.url:/etc/mowability/credentials/store-url\n')).toEqual(['store.url']);
    expect(loadsForAdmin(SETUPS_USING['store.url'] ?? {})).toMatch(/store\.url/);
  });
});
