import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFileFrom, loadConfig, redactConfig } from '../../src/config/load.js';
import { listSettings } from '../../src/config/schema.js';
import { serviceSchema } from '../../src/config/serviceSchema.js';
import { configProblems, useConfigFile } from '../helpers/configFile.js';

describe('loadConfig', () => {
  const configFile = useConfigFile();

  it('gives the embedded defaults without any source', () => {
    const config = loadConfig({ env: {}, argv: [] });
    expect(config.http.port).toBe(8080);
    expect(config.http.host).toBe('0.0.0.0');
    expect(config.db.path).toBe('./data/mowability.db');
    expect(config.http.bodyLimitBytes).toBe(65536);
    expect(config.allowSeasonOverride).toBe(false);
    expect(config.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('returns a frozen object', () => {
    const config = loadConfig({ env: {} });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.http)).toBe(true);
  });

  it('applies defaults < file < env < flags', () => {
    const file = configFile.write({ http: { port: 1111, host: '127.0.0.1' }, log: { level: 'warn' }, timezone: 'Europe/Berlin' });
    const fileOnly = loadConfig({ env: { MOWABILITY_CONFIG: file } });
    expect(fileOnly.http.port).toBe(1111);
    expect(fileOnly.timezone).toBe('Europe/Berlin');
    const envOverFile = loadConfig({ env: { MOWABILITY_CONFIG: file, MOWABILITY_HTTP_PORT: '2222' } });
    expect(envOverFile.http.port).toBe(2222);
    expect(envOverFile.http.host).toBe('127.0.0.1');
    const flagOverEnv = loadConfig({ env: { MOWABILITY_HTTP_PORT: '2222' }, argv: ['--config', file, '--http-port', '3333'] });
    expect(flagOverEnv.http.port).toBe(3333);
    expect(flagOverEnv.log.level).toBe('warn');
  });

  it('prefers --config over MOWABILITY_CONFIG', () => {
    expect(configFileFrom({ argv: ['--config=a.json'], env: { MOWABILITY_CONFIG: 'b.json' } })).toBe('a.json');
    expect(configFileFrom({ argv: [], env: { MOWABILITY_CONFIG: 'b.json' } })).toBe('b.json');
    expect(configFileFrom({ argv: [], env: {} })).toBeUndefined();
  });

  it('reads every contract environment variable', () => {
    const config = loadConfig({
      env: {
        MOWABILITY_DB_PATH: '/tmp/x.db',
        MOWABILITY_HTTP_HOST: '127.0.0.1',
        MOWABILITY_HTTP_PORT: '0',
        MOWABILITY_LOG_LEVEL: 'debug',
        MOWABILITY_TIMEZONE: 'UTC',
        MOWABILITY_TRUST_PROXY: '127.0.0.1, ::1',
        MOWABILITY_ALLOW_SEASON_OVERRIDE: 'yes',
        MOWABILITY_MQTT_URL: 'mqtt://127.0.0.1:1884',
        MOWABILITY_BROKER_ENABLED: 'false',
        MOWABILITY_BROKER_HOST: '127.0.0.1',
        MOWABILITY_BROKER_PORT: '0',
      },
    });
    expect(config).toMatchObject({
      db: { path: '/tmp/x.db' },
      http: { host: '127.0.0.1', port: 0, trustProxy: ['127.0.0.1', '::1'] },
      log: { level: 'debug' },
      timezone: 'UTC',
      allowSeasonOverride: true,
      mqtt: { url: 'mqtt://127.0.0.1:1884' },
      broker: { enabled: false, host: '127.0.0.1', port: 0 },
    });
  });

  it('names an unknown key in the file, the kind of its value (never the value) and the allowed keys', () => {
    const file = configFile.write({ http: { prot: 8080 } });
    const problems = configProblems(() => loadConfig({ argv: ['--config', file], env: {} }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('unknown key "http.prot"');
    expect(problems[0]).toContain('(a number)');
    expect(problems[0]).not.toContain('8080');
    expect(problems[0]).toContain('http.port');
  });

  it('names an invalid value, the key and what is allowed', () => {
    const problems = configProblems(() =>
      loadConfig({ env: { MOWABILITY_HTTP_PORT: '99999', MOWABILITY_TRUST_PROXY: 'maybe', MOWABILITY_TIMEZONE: 'Mars/Olympus' } }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/"http\.port" = 99999 is invalid: must be a TCP port number from 0 to 65535/),
        expect.stringMatching(/"http\.trustProxy" = \["maybe"\] is invalid: "maybe" is not an IP address, CIDR range/),
        expect.stringMatching(/"timezone" = "Mars\/Olympus" is invalid: must be an IANA time zone/),
      ]),
    );
  });

  it('names the station and the misspelt key, one problem a line, without echoing the stations list', () => {
    const file = configFile.write({
      stations: [
        { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events' },
        { id: 'shed', name: 'Shed', format: 'json', topik: 'shed/weather', fields: { temperature: 't' } },
      ],
    });
    const problems = configProblems(() => loadConfig({ argv: ['--config', file], env: {} }));
    expect(problems[0]).toMatch(/^stations\[1\] \("shed"\)\.topik is not a station setting \(allowed: id, name, format, topic, /);
    expect(problems[1]).toBe('stations[1] ("shed").topic must be an MQTT topic (wildcards + and # allowed)');
    expect(problems).toHaveLength(2);
    for (const problem of problems) expect(problem).not.toMatch(/rtl_433\/\+\/events|"stations" =|value was/);
  });

  it('rejects a port with trailing garbage instead of truncating it', () => {
    const problems = configProblems(() => loadConfig({ env: { MOWABILITY_HTTP_PORT: '80abc' } }));
    expect(problems[0]).toContain('"http.port" = "80abc"');
  });

  it('lists the allowed values of an enumerated setting', () => {
    const problems = configProblems(() => loadConfig({ env: { MOWABILITY_LOG_LEVEL: 'loud' } }));
    expect(problems[0]).toMatch(/"log\.level" = "loud" is invalid: .*"info".*"debug"/);
  });

  it('refuses registration limits that let one client or network fill the pending registrations', () => {
    const on = { MOWABILITY_REGISTRATION_ENABLED: 'true' };
    expect(configProblems(() => loadConfig({ env: { ...on, MOWABILITY_REGISTRATION_MAX_PENDING: '20' } }))).toEqual([
      '"registration.maxPendingPerNetwork" (20) must be below "registration.maxPending" (20), so one network cannot pause registration for everyone',
    ]);
    expect(configProblems(() => loadConfig({ env: { ...on, MOWABILITY_REGISTRATION_MAX_PENDING_PER_ADDRESS: '21' } }))).toEqual([
      '"registration.maxPendingPerAddress" (21) must not be above "registration.maxPendingPerNetwork" (20): a client\'s addresses lie in its network',
    ]);
    // Without registration the limits apply to nothing.
    expect(loadConfig({ env: { MOWABILITY_REGISTRATION_MAX_PENDING: '20' } }).registration.maxPending).toBe(20);
  });

  it('refuses a connection reserve that leaves no slot for a client holding one, and an IPv6 prefix length outside 1-128', () => {
    expect(configProblems(() => loadConfig({ env: { MOWABILITY_HTTP_MAX_CONNECTIONS: '20' } }))).toEqual([
      '"http.connectionReserve" (32) must be below "http.maxConnections" (20); lower the reserve (e.g. an eighth of the cap) or set it to 0',
    ]);
    expect(loadConfig({ env: { MOWABILITY_HTTP_MAX_CONNECTIONS: '0' } }).http.connectionReserve).toBe(32);
    for (const bad of ['0', '129', '64.5', 'x']) {
      expect(configProblems(() => loadConfig({ env: { MOWABILITY_HTTP_IPV6_SHARE_PREFIX: bad } })).join('\n')).toMatch(
        /http\.ipv6SharePrefix.*IPv6 prefix length, a whole number from 1 to 128/,
      );
    }
    expect(loadConfig({ env: { MOWABILITY_HTTP_IPV6_SHARE_PREFIX: '56' } }).http.ipv6SharePrefix).toBe(56);
  });

  it('refuses an embedded broker reachable from the network without accounts', () => {
    const problems = configProblems(() => loadConfig({ env: { MOWABILITY_BROKER_HOST: '0.0.0.0' } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/"broker\.host" = "0\.0\.0\.0".*"broker\.users"/);
  });

  it('refuses a discovery prefix equal to the base topic', () => {
    const file = configFile.write({ mqtt: { baseTopic: 'home' }, homeassistant: { prefix: 'home' } });
    expect(configProblems(() => loadConfig({ argv: ['--config', file] }))[0]).toMatch(/"homeassistant\.prefix" = "home" must differ/);
  });

  it('refuses a prune schedule that is not a cron expression', () => {
    const problems = configProblems(() => loadConfig({ env: { MOWABILITY_HISTORY_PRUNE_SCHEDULE: 'every night' } }));
    expect(problems[0]).toMatch(/"history\.pruneSchedule" = "every night" is invalid: must be a cron expression/);
  });

  it('reports a missing or malformed config file', () => {
    expect(configProblems(() => loadConfig({ argv: ['--config', join(configFile.dir, 'nope.json')] }))[0]).toMatch(/does not exist/);
    expect(configProblems(() => loadConfig({ argv: ['--config', configFile.write('{ not json')] }))[0]).toMatch(/not valid JSON/);
  });

  it('redacts sensitive settings', () => {
    const config = loadConfig({ env: {} });
    const sensitive = listSettings().filter(({ spec }) => spec.sensitive);
    const redacted = JSON.stringify(redactConfig(config, []));
    for (const { key } of sensitive) {
      const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], redactConfig(config, []));
      expect(value).toBe('[Sensitive]');
    }
    expect(redacted).toContain('"port":8080');
  });

  it('removes credentials from the broker URL in the printed configuration', () => {
    const config = loadConfig({ env: { MOWABILITY_MQTT_URL: 'mqtt://user:s3cret@broker.example:1883' } });
    const printed = JSON.stringify(redactConfig(config, []));
    expect(printed).not.toContain('s3cret');
    expect(printed).toContain('"url":"mqtt://broker.example:1883"');
  });
});

describe('configuration schema', () => {
  it('gives every setting a doc, a format and a default', () => {
    for (const { key, spec } of listSettings()) {
      expect(spec.doc, key).toMatch(/\S/);
      expect(spec.format, key).toBeDefined();
      expect(spec.default, key).not.toBeUndefined();
    }
  });

  it('gives every service setting an environment variable and a flag', () => {
    for (const { key, spec } of listSettings(serviceSchema)) {
      expect(spec.env, key).toMatch(/^MOWABILITY_[A-Z0-9_]+$/);
      expect(spec.arg, key).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });
});
