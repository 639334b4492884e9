/**
 * The lawn memory as the daemon plugs it in: one line of stationUnits(), configured by a file with
 * its own settings (`lawnMemory`) and station key (`mower`), with the whole composition root
 * (`serve`): its state, its mower source and its counters arrive through the unit contract alone.
 */
import { describe, expect } from 'vitest';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { lawnQuietHours } from '../../src/lawn/buildLawnUnit.js';
import { systemClock } from '../../src/util/clock.js';

const station = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', humidity: 'hum' },
  mower: { topic: 'robbi/state' },
};

describe('the lawn memory module in the daemon', () => {
  it('keeps the memory and the mower source from a configuration file, with the keys the base schema had', async ({ mqtt }) => {
    const served = await mqtt.serve({ lawnMemory: { cutHeightCm: 5, quietSundays: false }, stations: [station] });
    const client = await mqtt.connect(served.brokerPort!);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client.text('mowability/bridge/state') === 'online', 'bridge online');
    await client.client.publishAsync('garden/weather', JSON.stringify({ temp: 18, hum: 60 }), { qos: 1 });
    await client.client.publishAsync('robbi/state', 'docked', { qos: 1 });
    type State = { lawn?: { mow_need: unknown }; mower?: { topic: string; state: string | null } };
    const state = () => client.json('mowability/garden/state') as State | undefined;
    await waitUntil(() => state()?.mower?.state === 'docked', 'the mower state in the station state', 15_000);
    expect(state()!.lawn).toBeDefined();
    expect(state()!.mower).toMatchObject({ topic: 'robbi/state', mowing: false });
    const units = served.daemon.station.stats().units;
    expect(units.lawn).toMatchObject({ lawnCutsReceived: 0 });
    expect(units.mower).toMatchObject({ mowerStatesReceived: 1, mowerCuts: 0 });
  });
});

describe("the lawn memory's quiet hours for the forecast", () => {
  it('are its settings in the given time zone, and none when the lawn memory is off', () => {
    const on = {
      lawnMemory: {
        enabled: true,
        nightBan: true,
        nightMarginMinutes: 20,
        noiseHours: '20:00-07:00',
        quietSundays: true,
        holidayCountry: '',
        holidayRegion: '',
        cutHeightCm: 4,
        growthFactor: 1,
        saveIntervalMinutes: 30,
        pollSeconds: 5,
      },
    };
    expect(lawnQuietHours(on, 'Europe/Berlin', systemClock)).toMatchObject({
      night: true,
      marginMinutes: 20,
      sundays: true,
      timeZone: 'Europe/Berlin',
    });
    expect(lawnQuietHours({ lawnMemory: { ...on.lawnMemory, enabled: false } }, 'UTC', systemClock)).toBeUndefined();
  });
});
