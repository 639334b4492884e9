import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { STATION_FORMATS } from '../../src/ingest/types.js';

const EXAMPLE = fileURLToPath(new URL('../../config/mowability.example.json', import.meta.url));

describe('config/mowability.example.json', () => {
  it('is a complete example: valid, with a station of every format and a broker with accounts', () => {
    const config = loadConfig({ argv: ['--config', EXAMPLE], env: {}, units: stationUnitConfigs() });
    expect(new Set(config.stations.map((station) => station.format))).toEqual(new Set(STATION_FORMATS));
    expect(config.broker.users.length).toBeGreaterThan(0);
  });
});
