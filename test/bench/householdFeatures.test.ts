/** The household bench's block of new parts (bench/lib/householdFeatures.ts): how it is read and what it puts in the config. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURE_STATION, featuresFromEnv, withFeatures } from '../../bench/lib/householdFeatures.js';

const base = {
  stations: [
    { id: FEATURE_STATION, name: 'Bench station 0', format: 'rtl_433' },
    { id: 'bench1', name: 'Bench station 1', format: 'rtl_433' },
  ],
};

describe('BENCH_HOUSEHOLD_FEATURES', () => {
  it('reads all, none, a comma list, JSON and a JSON file; refuses an unknown part', () => {
    expect(Object.keys(featuresFromEnv('all'))).toEqual(['lawns', 'mower', 'haControls']);
    expect(featuresFromEnv(undefined)).toEqual({});
    expect(featuresFromEnv('none')).toEqual({});
    expect(featuresFromEnv('lawns, mower')).toEqual({ lawns: {}, mower: {} });
    expect(featuresFromEnv('{"mower":true,"lawns":false,"haControls":{"config":{"homeassistant":{"x":1}}}}')).toEqual({
      mower: {},
      haControls: { config: { homeassistant: { x: 1 } } },
    });
    const file = join(mkdtempSync(join(tmpdir(), 'features-')), 'features.json');
    writeFileSync(file, '{"lawns":{}}');
    expect(featuresFromEnv(`@${file}`)).toEqual({ lawns: {} });
    expect(() => featuresFromEnv('lawns,planner')).toThrow(/unknown part "planner"/);
  });

  it("puts two lawns and a mower under control on the first station only, and merges a part's settings by section", () => {
    const features = featuresFromEnv('{"lawns":true,"mower":true,"haControls":{"config":{"homeassistant":{"discovery":true}}}}');
    const config = withFeatures({ ...base, homeassistant: { prefix: 'ha' } } as typeof base, ['lawns', 'mower', 'haControls'], features);
    const [first, second] = config.stations as Array<Record<string, unknown>>;
    expect((first?.lawns as Array<{ id: string }>).map((lawn) => lawn.id)).toEqual([FEATURE_STATION, `${FEATURE_STATION}_back`]);
    expect(first?.mower).toMatchObject({ control: { enabled: true, dryRun: false, kind: 'mqtt' } });
    expect(second).toEqual(base.stations[1]);
    expect(config.homeassistant).toEqual({ prefix: 'ha', discovery: true });
    // A part left out of the run leaves the config as it was.
    expect(withFeatures(base, [], features)).toEqual(base);
  });
});
