import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREDENTIALS_DIRECTORY_ENV } from '../../src/config/credentials.js';
import { ConfigError, loadConfig, redactConfig } from '../../src/config/load.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { stationsProblems } from '../../src/ingest/stationConfig.js';
import { controlConfigOf } from '../../src/mower/controlConfig.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

const units = stationUnitConfigs();
const keys = unitStationKeys(units);
const station = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate' },
};
const haControl = {
  enabled: true,
  kind: 'homeassistant',
  homeassistant: { url: 'http://homeassistant.local:8123', entity: 'lawn_mower.robbi' },
};
const problemsOf = (mower: unknown) => stationsProblems([{ ...station, mower }], keys);

describe('mower.control', () => {
  it('is off and a dry run unless told otherwise; the lawn defaults to the station id', () => {
    expect(problemsOf({ control: haControl })).toEqual([]);
    const config = controlConfigOf({ kind: 'homeassistant', homeassistant: haControl.homeassistant }, 'garden');
    expect(config).toMatchObject({
      enabled: false,
      dryRun: true,
      lawn: 'garden',
      runMinutes: 60,
      minGapHours: 20,
      confirmSeconds: 120,
      retries: 2,
      userRuns: 'respect',
      budget: { perDay: 0, perWeek: 0, perMonth: 0 },
    });
    expect(config.homeassistant?.startService).toBe('lawn_mower.start_mowing');
  });

  it.each([
    ['an unknown kind', { kind: 'robot' }, 'stations[0] ("garden").mower.control.kind must be one of homeassistant, openmower, mqtt'],
    [
      'a missing kind block',
      { kind: 'openmower' },
      'stations[0] ("garden").mower.control.openmower is required for kind "openmower" (docs/mower.md has one worked example per kind)',
    ],
    [
      'a token in the file',
      { ...haControl, homeassistant: { ...haControl.homeassistant, token: 'x' } },
      'stations[0] ("garden").mower.control.homeassistant.token is not allowed (only url, entity, startService, startData; the token is the setting mowerControl.homeAssistantToken)',
    ],
    [
      'credentials in the URL',
      { ...haControl, homeassistant: { ...haControl.homeassistant, url: 'http://me:pw@ha:8123' } },
      'stations[0] ("garden").mower.control.homeassistant.url must be Home Assistant\'s http(s) address without credentials, e.g. "http://homeassistant.local:8123"',
    ],
    [
      'a run of 2 minutes',
      { ...haControl, runMinutes: 2 },
      'stations[0] ("garden").mower.control.runMinutes must be a whole number from 5 to 1440: the minutes one run takes (the dry window ahead must be at least this long)',
    ],
    [
      'a negative budget',
      { ...haControl, budget: { perWeek: -1 } },
      'stations[0] ("garden").mower.control.budget.perWeek must be a whole number of API calls from 0 (no limit) to 1000000',
    ],
    [
      'an unknown user-run policy',
      { ...haControl, userRuns: 'ignore' },
      'stations[0] ("garden").mower.control.userRuns must be one of respect, dockOnRain, takeOver',
    ],
    [
      'a wildcard state topic',
      {
        kind: 'mqtt',
        mqtt: {
          commandTopic: 'a/b',
          stateTopic: 'a/#',
          payloads: { start: 's', dock: 'd', pause: 'p' },
          states: { mowing: ['m'], docked: ['d'] },
        },
      },
      'stations[0] ("garden").mower.control.mqtt.stateTopic must be a concrete topic (no wildcards + or #)',
    ],
  ])('refuses %s, naming the key and the fix', (_name, control, problem) => {
    expect(problemsOf({ control })).toEqual([problem]);
  });

  it("makes the lawn memory's mower topic optional only with a control block", () => {
    expect(problemsOf({ control: haControl })).toEqual([]);
    expect(problemsOf({})[0]).toMatch(/mower\.topic is required/);
  });

  it("loads through the daemon's units; the token comes from the environment or a credential and is redacted in `mowability config`", () => {
    const temp = makeTempDir();
    try {
      const token = 'eyJ-very-secret-token';
      const file = join(temp.dir, 'config.json');
      writeFileSync(file, JSON.stringify({ stations: [{ ...station, mower: { control: haControl } }] }));
      const fromEnv = loadConfig({
        env: { MOWABILITY_CONFIG: file, MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN: token },
        units,
      });
      expect((fromEnv as unknown as { mowerControl: { homeAssistantToken: string } }).mowerControl.homeAssistantToken).toBe(token);
      const shown = JSON.stringify(redactConfig(fromEnv, units));
      expect(shown).not.toContain(token);
      expect(shown).toContain('"homeAssistantToken":"[Sensitive]"');
      const credentials = join(temp.dir, 'credentials');
      mkdirSync(credentials, { mode: 0o700 });
      writeFileSync(join(credentials, 'mowerControl.homeAssistantToken'), `${token}\n`);
      const fromCredential = loadConfig({
        env: { MOWABILITY_CONFIG: file, MOWABILITY_DB_PATH: temp.dbPath, [CREDENTIALS_DIRECTORY_ENV]: credentials },
        units,
      });
      expect((fromCredential as unknown as { mowerControl: { homeAssistantToken: string } }).mowerControl.homeAssistantToken).toBe(token);
      expect(() =>
        loadConfig({
          env: { MOWABILITY_CONFIG: file, MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN: 'with space' },
          units,
        }),
      ).toThrow(ConfigError);
    } finally {
      temp.cleanup();
    }
  });
});
