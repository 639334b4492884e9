/**
 * Who may command a further lawn's own mower on the embedded broker: its switch and buttons live under
 * `<base>/<lawn>/mower/...` (the lawn's id, not the station's), and the ownership rule covers them as
 * it covers the station's. Attacked with real mqtt.js clients on the real aedes broker of the whole
 * daemon (a configuration file): an anonymous LAN client, and another account, switch "Automatic
 * mowing" off and press "Dock now" on the back lawn → nothing changes; Home Assistant's account
 * (`homeassistant.commandAccount`) does the same and it works.
 */
import { describe, expect } from 'vitest';
import type { BrokerUser } from '../../src/config/mqttValues.js';
import { mowerTopics } from '../../src/mower/mowerEntities.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { publishOnce, waitUntil, type RecordingClient } from '../helpers/mqttHarness.js';

const HA: BrokerUser = { username: 'homeassistant', password: 'ha password 1' };
const OTHER: BrokerUser = { username: 'rtl433', password: 'rtl password 1' };

/** A dry run of a generic MQTT mower: the switch and buttons work, nothing is sent to a mower. */
const control = (name: string) => ({
  enabled: true,
  kind: 'mqtt',
  mqtt: {
    commandTopic: `${name}/set`,
    stateTopic: `${name}/state`,
    payloads: { start: 'start', dock: 'home', pause: 'stop' },
    states: { mowing: ['mowing'], docked: ['docked'] },
  },
});
const station = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' },
  mower: { control: control('front-mower') },
  lawns: [{ id: 'front' }, { id: 'back', name: 'Back lawn', mower: { control: control('back-mower') } }],
};
const back = mowerTopics('mowability', 'back');
const MARKER = 'test/marker';

type State = { mower_control_lawns?: Record<string, { automatic: boolean; decision: { code: string } | null }> };

/**
 * Publishes each (topic, payload) as `connect`, each on its own connection (the embedded broker answers a
 * refused publish by closing it, MQTT 3.1.1), and proves the broker passed none of them on: an observer
 * subscribed to the topics beforehand receives its own marker (published after every attack was
 * acknowledged, so delivered after anything the broker had passed on) and nothing before it.
 */
async function passedOn(
  port: number,
  observer: RecordingClient,
  attacks: ReadonlyArray<readonly [string, string, boolean?]>,
  connect?: BrokerUser,
): Promise<string[]> {
  const heard: string[] = [];
  let marked = false;
  observer.client.on('message', (topic) => {
    if (topic === MARKER) marked = true;
    else if (!marked) heard.push(topic);
  });
  await observer.client.subscribeAsync([...new Set(attacks.map(([topic]) => topic)), MARKER], { qos: 1 });
  for (const [topic, payload, retain] of attacks)
    expect(await publishOnce(port, topic, payload, { qos: 1, retain: retain === true, ...(connect && { connect }) }), topic).toBe('closed');
  await observer.client.publishAsync(MARKER, 'after the attacks', { qos: 1 });
  await waitUntil(() => marked, 'the marker');
  return heard;
}

describe("a further lawn's mower command topics on the embedded broker", () => {
  it('an anonymous LAN client (anonymous broker) cannot switch the back lawn\'s mower off or press "Dock now"', async ({ mqtt }) => {
    const served = await mqtt.serve({ stations: [station] });
    const state = () => served.daemon.station.stationState('garden') as State | undefined;
    await waitUntil(() => state()?.mower_control_lawns?.back?.automatic === true, "the back lawn's mower control");
    const port = served.brokerPort!;
    const observer = await mqtt.connect(port);
    const attacks = [
      [back.automaticSet, 'OFF'],
      [back.dockNow, 'PRESS'],
      [back.mowNow, 'PRESS'],
      // A retained OFF, left for the next start.
      [back.automaticSet, 'OFF', true],
    ] as const;
    expect(await passedOn(port, observer, attacks)).toEqual([]);
    expect(state()!.mower_control_lawns!.back!.automatic).toBe(true);
    expect(state()!.mower_control_lawns!.back!.decision?.code ?? 'none').not.toBe('idle');
    expect(served.daemon.station.stats().units['mower-control']).toMatchObject({ mowerCommands: 0 });
  });

  it("another account cannot, Home Assistant's account can: the back lawn's switch goes off and on", async ({ mqtt }) => {
    const served = await mqtt.serve(
      { stations: [station] },
      { env: { MOWABILITY_BROKER_USERS: JSON.stringify([HA, OTHER]), MOWABILITY_HOMEASSISTANT_COMMAND_ACCOUNT: HA.username } },
    );
    const state = () => served.daemon.station.stationState('garden') as State | undefined;
    await waitUntil(() => state()?.mower_control_lawns?.back?.automatic === true, "the back lawn's mower control");
    const port = served.brokerPort!;
    const observer = await mqtt.connect(port, { username: HA.username, password: HA.password });
    expect(
      await passedOn(
        port,
        observer,
        [
          [back.automaticSet, 'OFF'],
          [back.dockNow, 'PRESS'],
        ],
        OTHER,
      ),
    ).toEqual([]);
    expect(state()!.mower_control_lawns!.back!.automatic).toBe(true);
    // Home Assistant's account: the back lawn's own switch goes off, and on again.
    expect(await publishOnce(port, back.automaticSet, 'OFF', { qos: 1, connect: HA })).toBe('handled');
    await waitUntil(() => state()?.mower_control_lawns?.back?.automatic === false, "Home Assistant's OFF on the back lawn");
    expect(await publishOnce(port, back.automaticSet, 'ON', { qos: 1, connect: HA })).toBe('handled');
    await waitUntil(() => state()?.mower_control_lawns?.back?.automatic === true, "Home Assistant's ON on the back lawn");
  });
});
