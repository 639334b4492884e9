/**
 * Config files whose shape does not fit the schema: each case must stop with exit code 78 and a
 * line naming the key and the shape expected. Before, convict merged them silently: an object
 * for a list left the empty default in place (no stations; a broker without accounts, i.e.
 * anonymous), and only a syntax error may be called "not valid JSON".
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { configShapeProblems } from '../../src/config/fileShape.js';
import { configSchema } from '../../src/config/schema.js';
import { configProblems, configRefusal, useConfigFile } from '../helpers/configFile.js';

describe('configuration file shapes', () => {
  const config = useConfigFile();

  function problemsFor(content: string): string[] {
    const file = config.write(content);
    return configProblems(() => loadConfig({ argv: ['--config', file], env: {} }));
  }

  it('refuses broker.users given as one object instead of a list, which left the broker anonymous (attack)', () => {
    const problems = problemsFor(
      JSON.stringify({ broker: { host: '127.0.0.1', users: { username: 'ha', password: 'long-enough-secret' } } }),
    );
    expect(problems).toEqual([
      `configuration file "${config.path}": "broker.users" must be a list such as [{"username": "...", "password": "..."}]; it is an object (a single entry goes in [ ] too)`,
    ]);
    expect(problems.join('\n')).not.toContain('long-enough-secret');
  });

  it('refuses an empty object for broker.users', () => {
    expect(problemsFor('{"broker": {"users": {}}}')).toEqual([expect.stringContaining('"broker.users" must be a list such as')]);
  });

  it('refuses "stations": {}', () => {
    expect(problemsFor('{"stations": {}}')).toEqual([
      `configuration file "${config.path}": "stations" must be a list such as [{"id", "name", "format", "topic", ...}]; it is an object (a single entry goes in [ ] too)`,
    ]);
  });

  it('refuses a single station object instead of a list (it was called "not valid JSON")', () => {
    const station = { id: 'garden', name: 'Garden', format: 'json', topic: 'sensors/garden', fields: { temperature: 'temp' } };
    const problems = problemsFor(JSON.stringify({ stations: station }));
    expect(problems).toEqual([
      expect.stringContaining('"stations" must be a list such as [{"id", "name", "format", "topic", ...}]; it is an object'),
    ]);
    expect(problems.join('\n')).not.toContain('not valid JSON');
  });

  it('refuses a top-level array', () => {
    expect(problemsFor('[{"http": {"port": 8080}}]')).toEqual([
      `configuration file "${config.path}": the configuration file must hold one JSON object of settings, such as {"http": {"port": 8080}}; it holds a list`,
    ]);
  });

  it('refuses a top-level string, number or null', () => {
    expect(problemsFor('"hello"')).toEqual([expect.stringContaining('it holds a string')]);
    expect(problemsFor('42')).toEqual([expect.stringContaining('it holds a number')]);
    expect(problemsFor('null')).toEqual([expect.stringContaining('it holds null')]);
  });

  it('refuses a list or a value where a group of settings belongs, naming the group keys', () => {
    expect(problemsFor('{"http": []}')).toEqual([
      expect.stringMatching(/"http" must be an object of settings \(http\.host, http\.port, .*\); it is a list$/),
    ]);
    expect(problemsFor('{"http": {"rateLimit": 5}}')).toEqual([
      expect.stringContaining(
        '"http.rateLimit" must be an object of settings (http.rateLimit.max, http.rateLimit.timeWindowMs); it is a number',
      ),
    ]);
  });

  it('says "not valid JSON" for a syntax error only', () => {
    expect(problemsFor('{"http": {"port": 1,}}')).toEqual([
      expect.stringMatching(new RegExp(`^configuration file "${config.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" is not valid JSON: `)),
    ]);
  });

  describe('never echoes a value: a misspelt or misplaced key may hold a secret', () => {
    const SECRET = 'hunter2hunter2';
    function messageFor(content: string): string {
      const file = config.write(content);
      const refusal = configRefusal(() => loadConfig({ argv: ['--config', file], env: {} }));
      return `${refusal.message}\n${refusal.problems.join('\n')}`;
    }

    it('names a misspelt mqtt.password without its value', () => {
      const message = messageFor(JSON.stringify({ mqtt: { passwd: SECRET } }));
      expect(message).not.toContain(SECRET);
      expect(message).toContain('unknown key "mqtt.passwd" (a string); allowed keys under "mqtt": ');
      expect(message).toContain('mqtt.password');
    });

    it('names a misspelt broker.users without its accounts', () => {
      const message = messageFor(JSON.stringify({ broker: { user: [{ username: 'ha', password: SECRET }] } }));
      expect(message).not.toContain(SECRET);
      expect(message).toContain('unknown key "broker.user" (a list); allowed keys under "broker": ');
      expect(message).toContain('broker.users');
    });

    it('names an unknown group without the values inside it', () => {
      const message = messageFor(JSON.stringify({ mqtt: { credentials: { password: SECRET } } }));
      expect(message).not.toContain(SECRET);
      expect(message).toContain('unknown key "mqtt.credentials.password" (a string)');
    });

    it('reports a JSON syntax error without quoting the file', () => {
      const message = messageFor(`{"mqtt": {"password": ${SECRET}}}`);
      expect(message).toContain('is not valid JSON');
      expect(message).not.toContain('hunter');
    });
  });

  it('accepts the documented shapes', () => {
    expect(configShapeProblems({ stations: [], broker: { users: [] }, http: { rateLimit: { max: 1 } } }, configSchema)).toEqual([]);
    const file = config.write({ broker: { users: [{ username: 'ha', password: 'long-enough-secret' }] }, stations: [] });
    expect(loadConfig({ argv: ['--config', file], env: {} }).broker.users).toHaveLength(1);
  });
});
