import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { schemaWithUnits } from '../../src/config/unitSettings.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { applyCredentials, CREDENTIAL_SETTINGS, CREDENTIALS_DIRECTORY_ENV } from '../../src/config/credentials.js';
import { loadConfig, redactConfig } from '../../src/config/load.js';
import { listSettings } from '../../src/config/schema.js';
import { runBuiltCli } from '../helpers/httpCli.js';
import { configProblems } from '../helpers/configFile.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

const PASSWORD = 'credential-pw-4711';
const USERS = [{ username: 'rtl433', password: 'users-pw-0815' }];

describe('secrets from systemd credentials and the environment', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let credentials: string;
  let env: Record<string, string>;

  beforeEach(() => {
    temp = makeTempDir();
    credentials = join(temp.dir, 'credentials');
    mkdirSync(credentials, { mode: 0o700 });
    env = { [CREDENTIALS_DIRECTORY_ENV]: credentials, MOWABILITY_DB_PATH: temp.dbPath };
  });
  afterEach(() => temp.cleanup());

  it('every credential setting is a secret with an environment variable', () => {
    // The station units' secrets (mowerControl.homeAssistantToken) are in the schema with the units.
    const settings = new Map(listSettings(schemaWithUnits(stationUnitConfigs())).map(({ key, spec }) => [key, spec]));
    for (const key of CREDENTIAL_SETTINGS) {
      expect(settings.get(key)?.sensitive, key).toBe(true);
      expect(settings.get(key)?.env, key).toMatch(/^MOWABILITY_/);
    }
  });

  it('leaves the environment alone outside systemd (no CREDENTIALS_DIRECTORY)', () => {
    expect(applyCredentials({ A: 'b' })).toEqual({ env: { A: 'b' }, problems: [] });
  });

  it('reads broker.users and mqtt.password from credential files, dropping the final newline', () => {
    writeFileSync(join(credentials, 'broker.users'), `${JSON.stringify(USERS)}\n`);
    writeFileSync(join(credentials, 'mqtt.password'), `${PASSWORD}\n`);
    const config = loadConfig({ env });
    expect(config.broker.users).toEqual(USERS);
    expect(config.mqtt.password).toBe(PASSWORD);
  });

  it('a credential overrides the config file, like the environment variable it stands for', () => {
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ mqtt: { password: 'from-the-file' } }));
    writeFileSync(join(credentials, 'mqtt.password'), PASSWORD);
    expect(loadConfig({ env, argv: ['--config', file] }).mqtt.password).toBe(PASSWORD);
  });

  it('reads broker.users as JSON from MOWABILITY_BROKER_USERS (EnvironmentFile=)', () => {
    const config = loadConfig({ env: { MOWABILITY_BROKER_USERS: JSON.stringify(USERS) } });
    expect(config.broker.users).toEqual(USERS);
  });

  it('refuses malformed or invalid accounts without echoing them', () => {
    const malformed = configProblems(() => loadConfig({ env: { MOWABILITY_BROKER_USERS: `[{"username": "a", "password": ${PASSWORD}` } }));
    expect(malformed.join('\n')).toContain('"broker.users" = [Sensitive] is invalid: must be a JSON list');
    expect(malformed.join('\n')).not.toContain(PASSWORD);
    writeFileSync(join(credentials, 'broker.users'), JSON.stringify([{ username: 'a', password: 'short' }]));
    const invalid = configProblems(() => loadConfig({ env }));
    expect(invalid.join('\n')).toContain('"broker.users" = [Sensitive] is invalid: user "a" needs a password of at least 8 characters');
  });

  it('refuses a secret given twice, an unknown credential and an unreadable one, naming the fix', () => {
    writeFileSync(join(credentials, 'mqtt.password'), PASSWORD);
    expect(configProblems(() => loadConfig({ env: { ...env, MOWABILITY_MQTT_PASSWORD: 'other' } }))).toEqual([
      `"mqtt.password" is set twice: by the credential ${join(credentials, 'mqtt.password')} and by MOWABILITY_MQTT_PASSWORD; remove one of them`,
    ]);
    writeFileSync(join(credentials, 'mqtt.pasword'), PASSWORD);
    expect(configProblems(() => loadConfig({ env }))).toEqual([
      `credential "mqtt.pasword" (${join(credentials, 'mqtt.pasword')}) is not a setting this daemon reads from credentials; use one of: broker.users, mqtt.password, store.url, http.rateLimitStore, mowerControl.homeAssistantToken`,
    ]);
    const missing = join(temp.dir, 'gone');
    expect(configProblems(() => loadConfig({ env: { [CREDENTIALS_DIRECTORY_ENV]: missing } }))[0]).toContain(
      `CREDENTIALS_DIRECTORY="${missing}" cannot be read (ENOENT)`,
    );
  });

  it('reports a credential it cannot read', () => {
    mkdirSync(join(credentials, 'broker.users'));
    expect(configProblems(() => loadConfig({ env }))[0]).toMatch(/^credential "broker.users" \(.+\) cannot be read \(EISDIR\)$/);
  });

  it('keeps credential secrets out of the printed configuration (mowability config)', async () => {
    writeFileSync(join(credentials, 'broker.users'), JSON.stringify(USERS));
    writeFileSync(join(credentials, 'mqtt.password'), PASSWORD);
    const printed = JSON.stringify(redactConfig(loadConfig({ env }), []));
    expect(printed).toContain('"users":"[Sensitive]"');
    expect(printed).toContain('"password":"[Sensitive]"');
    const result = await runBuiltCli(['config'], env);
    expect(result.code).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(new RegExp(`${PASSWORD}|${USERS[0]?.password}`));
    expect(JSON.parse(result.stdout).broker.users).toBe('[Sensitive]');
  });
});
