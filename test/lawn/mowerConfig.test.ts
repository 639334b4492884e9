/** A station's `mower` block (the lawn memory's key): every mistake names the station, the key and the fix. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationsProblems as problemsOf } from '../../src/ingest/stationConfig.js';

/** The `mower` key is the lawn memory's (src/lawn/mowerConfig.ts), known with the units of stationUnits(). */
const stationsProblems = (stations: unknown) => problemsOf(stations, unitStationKeys(stationUnitConfigs()));

const station = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

describe('station mower settings', () => {
  it('accepts a topic alone, and with a dotted key, own mowing states and a minimum', () => {
    expect(
      stationsProblems([
        { ...station, mower: { topic: 'homeassistant/lawn_mower/robbi/state' } },
        { ...station, id: 'b', mower: { topic: 'landroid/status', key: 'dat.ls', mowingStates: ['7', '8'], minMinutes: 20 } },
      ]),
    ).toEqual([]);
  });

  it.each([
    [
      'not an object',
      'robbi/state',
      'stations[0] ("garden").mower must be an object {"topic": "...", "key": "state", "mowingStates": ["mowing"], "minMinutes": 10} naming the mower\'s state topic',
    ],
    [
      'no topic',
      { minMinutes: 10 },
      'stations[0] ("garden").mower.topic is required: the MQTT topic the mower (or its bridge) publishes its state on, e.g. "homeassistant/lawn_mower/robbi/state"',
    ],
    ['a wildcard topic', { topic: 'robots/+/state' }, 'stations[0] ("garden").mower.topic must be a concrete topic (no wildcards + or #)'],
    [
      'an unknown key',
      { topic: 'r/s', state: 'mowing' },
      'stations[0] ("garden").mower.state is not allowed (only topic, key, mowingStates, minMinutes, control)',
    ],
    [
      'an empty path level',
      { topic: 'r/s', key: 'dat..ls' },
      'stations[0] ("garden").mower.key must be a JSON field or a dotted path to it of up to 8 levels, e.g. "state" or "dat.ls"',
    ],
    [
      'a state list that is a word',
      { topic: 'r/s', mowingStates: 'mowing' },
      'stations[0] ("garden").mower.mowingStates must be a list of 1 to 16 non-empty state values (up to 64 characters each), e.g. ["mowing"] or ["7"] for a numeric status',
    ],
    [
      'an empty state list',
      { topic: 'r/s', mowingStates: [] },
      'stations[0] ("garden").mower.mowingStates must be a list of 1 to 16 non-empty state values (up to 64 characters each), e.g. ["mowing"] or ["7"] for a numeric status',
    ],
    [
      'zero minutes',
      { topic: 'r/s', minMinutes: 0 },
      'stations[0] ("garden").mower.minMinutes must be a whole number of minutes from 1 to 1440 (the shortest run of "mowing" that counts as a cut)',
    ],
    [
      'fractional minutes',
      { topic: 'r/s', minMinutes: 2.5 },
      'stations[0] ("garden").mower.minMinutes must be a whole number of minutes from 1 to 1440 (the shortest run of "mowing" that counts as a cut)',
    ],
  ])('refuses %s', (_name, mower, problem) => {
    expect(stationsProblems([{ ...station, mower }])).toEqual([problem]);
  });

  it('refuses a mower topic under mqtt.baseTopic, where only the daemon publishes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mower-config-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(
        file,
        JSON.stringify({ db: { path: join(dir, 'db.sqlite') }, stations: [{ ...station, mower: { topic: 'mowability/robot/state' } }] }),
      );
      const load = () => loadConfig({ argv: ['--config', file], units: stationUnitConfigs() });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/station "garden" mower\.topic "mowability\/robot\/state" lies under "mqtt\.baseTopic" = "mowability"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
