/**
 * The add-on's options and the Supervisor's answers mapped onto the configuration
 * (src/cli/addon/addonOptions.ts), and the add-on command's refusals in this process: the
 * broker's password only as an environment variable, the home's location for stations without
 * one, the mower block for the first station, each wrong option named.
 */
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { addonConfigSources, AddonOptionsError, ADDON_OPTION_DEFAULTS } from '../../../src/cli/addon/addonOptions.js';
import { SupervisorClient } from '../../../src/cli/addon/supervisor.js';
import { berlinCoreConfig, FakeSupervisor } from '../../helpers/fakeSupervisor.js';
import { runCliInProcess } from '../../helpers/httpCli.js';
import { makeTempDir } from '../../helpers/httpTempDir.js';

const MQTT = { host: 'core-mosquitto', port: 1883, ssl: false, username: 'addons', password: 'secret-pw', protocol: '3.1.1' };
const CORE = { latitude: 52.52, longitude: 13.41, elevation: 34, timeZone: 'Europe/Berlin', unitSystem: {}, country: 'DE' };

describe('the add-on options', () => {
  it('empty: a modelled station at home, the Supervisor broker with the password only in the environment', () => {
    const { value, env } = addonConfigSources({}, { mqtt: MQTT, core: CORE }, '/data/');
    expect(value).toMatchObject({
      stations: [{ id: 'home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41, elevation: 34 } }],
      timezone: 'Europe/Berlin',
      db: { path: '/data/mowability.db' },
      http: { port: 8099, ingressProxy: '172.30.32.2' },
      broker: { enabled: false },
      mqtt: { url: 'mqtt://core-mosquitto:1883', username: 'addons' },
    });
    expect(JSON.stringify(value)).not.toContain('secret-pw');
    expect(env).toEqual({ MOWABILITY_MQTT_PASSWORD: 'secret-pw' });
  });

  it("stations from JSON get the home's location when they have none; the mower block goes to the first", () => {
    const { value } = addonConfigSources(
      {
        stations_json:
          '[{"id": "garden", "format": "rtl_433", "topic": "rtl_433/events"}, {"id": "far", "format": "json", "topic": "x", "location": {"latitude": 1, "longitude": 2}}]',
        mower_control: 'on',
        mower_entity: 'lawn_mower.robbi',
        mower_start_service: 'husqvarna_automower.override_schedule',
        quiet_holidays: true,
        retired_option: 1,
      },
      { mqtt: { ...MQTT, ssl: true }, core: CORE },
      '/data',
    );
    const stations = value.stations as Array<Record<string, unknown>>;
    expect(stations[0]).toMatchObject({
      location: { latitude: 52.52 },
      mower: {
        control: {
          enabled: true,
          dryRun: false,
          kind: 'homeassistant',
          homeassistant: { entity: 'lawn_mower.robbi', startService: 'husqvarna_automower.override_schedule' },
        },
      },
    });
    expect((stations[0]!.mower as { control: { homeassistant: object } }).control.homeassistant).not.toHaveProperty('url');
    expect(stations[1]).toMatchObject({ location: { latitude: 1, longitude: 2 } });
    expect(value).toMatchObject({ mqtt: { url: 'mqtts://core-mosquitto:1883' }, lawnMemory: { holidayCountry: 'DE' } });
  });

  it('names every wrong option', () => {
    const problems = (raw: unknown, core = CORE) => {
      try {
        addonConfigSources(raw, { mqtt: MQTT, core }, '/data');
        return [];
      } catch (err) {
        return (err as AddonOptionsError).problems;
      }
    };
    expect(problems({ stations_json: '[{' })).toEqual([expect.stringContaining('add-on option "stations_json" is not JSON')]);
    expect(problems({ stations_json: '{}' })).toEqual([expect.stringContaining('must be a JSON list of stations')]);
    expect(problems({ night_ban: 'yes' })).toEqual(['add-on option "night_ban" must be a boolean, not "yes"']);
    expect(problems({ mower_control: 'on' })).toEqual([expect.stringContaining('"mower_entity" must name the lawn_mower entity')]);
    expect(problems({ quiet_holidays: true }, { ...CORE, country: undefined as unknown as string })).toEqual([
      expect.stringContaining("needs Home Assistant's country"),
    ]);
    expect(
      problems({
        stations_json: '[{"id": "g", "format": "json", "topic": "t", "mower": {"control": {"enabled": true}}}]',
        mower_control: 'dry_run',
        mower_entity: 'lawn_mower.x',
      }),
    ).toEqual([expect.stringContaining('both drive the mower')]);
    expect(problems([])).toEqual(['/data/options.json must hold an object of options']);
    expect(Object.keys(ADDON_OPTION_DEFAULTS)).toContain('stations_json');
  });
});

describe('the Supervisor client and the add-on command in this process', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('reads the documented endpoints; refuses a core configuration without a home', async () => {
    const supervisor = await FakeSupervisor.start({
      token: 'tok',
      mqtt: { host: '127.0.0.1', port: 1883, username: 'u', password: 'p' },
      core: berlinCoreConfig(),
    });
    cleanups.push(() => supervisor.stop());
    const client = new SupervisorClient(supervisor.url, 'tok');
    expect(await client.mqttService()).toEqual({
      host: '127.0.0.1',
      port: 1883,
      ssl: false,
      username: 'u',
      password: 'p',
      protocol: '3.1.1',
    });
    expect(await client.coreConfig()).toMatchObject({
      latitude: 52.52,
      timeZone: 'Europe/Berlin',
      country: 'DE',
      unitSystem: { temperature: '°C' },
    });
    expect(await client.info()).toMatchObject({ homeassistant: '2024.1.6', arch: 'amd64' });
    const homeless = await FakeSupervisor.start({ token: 'tok', mqtt: undefined, core: { ...berlinCoreConfig(), latitude: null } });
    cleanups.push(() => homeless.stop());
    await expect(new SupervisorClient(homeless.url, 'tok').coreConfig()).rejects.toThrow('has no home location');
    // Nothing listens there: retried, then a message that says so (no waiting in the test).
    const gone = new SupervisorClient('http://127.0.0.1:1', 'tok', { delay: async () => undefined });
    await expect(gone.info()).rejects.toThrow(/after 15 attempts: no answer from http:\/\/127\.0\.0\.1:1/);
  });

  it('without SUPERVISOR_TOKEN it says it runs inside the add-on; a bad options file is a config error', async () => {
    const missing = await runCliInProcess(['addon'], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SUPERVISOR_TOKEN is not set');
    const temp = makeTempDir('mow-addon-options-');
    cleanups.push(() => temp.cleanup());
    const supervisor = await FakeSupervisor.start({
      token: 'tok',
      mqtt: { host: '127.0.0.1', port: 1883, username: 'u', password: 'p' },
      core: berlinCoreConfig(),
    });
    cleanups.push(() => supervisor.stop());
    const env = { SUPERVISOR_TOKEN: 'tok', MOWABILITY_SUPERVISOR_URL: supervisor.url, MOWABILITY_ADDON_DATA: temp.dir };
    writeFileSync(`${temp.dir}/options.json`, '{"log_level": ');
    const broken = await runCliInProcess(['addon'], env);
    expect(broken.code).toBe(78);
    expect(broken.stderr).toContain('options.json" are not JSON');
    writeFileSync(`${temp.dir}/options.json`, JSON.stringify({ night_ban: 'sometimes' }));
    const wrong = await runCliInProcess(['addon'], env);
    expect(wrong.code).toBe(78);
    expect(wrong.stderr).toContain('add-on option "night_ban" must be a boolean');
    expect((await runCliInProcess(['addon', '--help'], {})).stdout).toContain('Usage: mowability addon');
  });
});
