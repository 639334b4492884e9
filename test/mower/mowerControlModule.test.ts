/**
 * The mower control as the daemon plugs it in (one line of stationUnits(), the whole composition root
 * `serve`, a configuration file): a dry run of a generic MQTT mower on the embedded broker. The
 * station's state carries `mower_control`, the mower's state topic is read, the switch is discovered
 * with its own command topic, and nothing is sent (the dry run; no forecast, so no start either).
 */
import { describe, expect } from 'vitest';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { FakeHomeAssistant } from '../helpers/mowerSimulators.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.daemon-test-token-4711';

const control = {
  enabled: true,
  kind: 'mqtt',
  mqtt: {
    commandTopic: 'robbi/set',
    stateTopic: 'robbi/state',
    payloads: { start: 'start', dock: 'home', pause: 'stop' },
    states: { mowing: ['mowing'], docked: ['docked'] },
  },
};
const station = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' },
  mower: { control },
};

describe('the mower control module in the daemon', () => {
  it('runs a dry run from a configuration file: its state, its discovery and no command', async ({ mqtt }) => {
    const served = await mqtt.serve({ stations: [station] });
    const client = await mqtt.connect(served.brokerPort!);
    await client.client.subscribeAsync(['mowability/#', 'homeassistant/#', 'robbi/set'], { qos: 1 });
    await waitUntil(() => client.text('mowability/bridge/state') === 'online', 'bridge online');
    await client.client.publishAsync('robbi/state', 'docked', { qos: 1, retain: true });
    await client.client.publishAsync('garden/weather', JSON.stringify({ temp: 18, rate: 0, hum: 60 }), { qos: 1 });
    type State = { mower_control?: { dry_run: boolean; automatic: boolean; activity: string; decision: { code: string } | null } };
    const state = () => client.json('mowability/garden/state') as State | undefined;
    await waitUntil(() => state()?.mower_control?.activity === 'docked', 'the mower state in the station state', 15_000);
    expect(state()!.mower_control).toMatchObject({ dry_run: true, automatic: true });
    const switchConfig = [...client.latest.entries()].find(
      ([topic]) => topic.startsWith('homeassistant/switch/') && topic.endsWith('automatic_mowing/config'),
    );
    expect(switchConfig).toBeDefined();
    expect(JSON.parse(switchConfig![1].payload)).toMatchObject({
      name: 'Automatic mowing',
      command_topic: 'mowability/garden/mower/automatic/set',
    });
    const button = [...client.latest.entries()].find(([topic]) => topic.endsWith('_mow_now/config'));
    expect(JSON.parse(button![1].payload)).not.toHaveProperty('state_topic');
    expect(client.latest.has('robbi/set')).toBe(false);
    expect(served.daemon.station.stats().units['mower-control']).toMatchObject({ mowerCommands: 0 });
  });

  it('connects a Home Assistant mower with the token from the environment; the token is in no log line, /metrics, status page or state', async ({
    mqtt,
  }) => {
    const ha = await FakeHomeAssistant.start(TOKEN);
    mqtt.defer(() => ha.stop());
    const haStation = {
      ...station,
      mower: { control: { enabled: true, kind: 'homeassistant', homeassistant: { url: ha.url, entity: 'lawn_mower.robbi' } } },
    };
    const served = await mqtt.serve(
      { stations: [haStation] },
      { logLevel: 'trace', env: { MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN: TOKEN, MOWABILITY_HTTP_METRICS: 'open' } },
    );
    const client = await mqtt.connect(served.brokerPort!);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => ha.authenticatedClients === 1, 'the daemon authenticated at Home Assistant', 15_000);
    await client.client.publishAsync('garden/weather', JSON.stringify({ temp: 18, rate: 0, hum: 60 }), { qos: 1 });
    type State = { mower_control?: { activity: string; connection_problem: string | null } };
    const state = () => client.json('mowability/garden/state') as State | undefined;
    await waitUntil(() => state()?.mower_control?.activity === 'docked', 'the entity state from get_states', 15_000);
    expect(state()!.mower_control!.connection_problem).toBeNull();
    const texts = await Promise.all(
      ['/metrics', '/', '/stations/garden', '/v1/stations', '/health'].map(async (path) =>
        (await fetch(`${served.httpAddress}${path}`)).text(),
      ),
    );
    const everything = [served.log.text(), client.text('mowability/garden/state') ?? '', ...texts].join('\n');
    expect(texts[0]).toContain('mowability_mower_commands_total');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('daemon-test-token');
  });
});
