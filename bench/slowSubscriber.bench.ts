/**
 * `mowable` under the slow-subscriber attack: the real daemon (`dist/cli/main.js serve`, embedded
 * broker) and a Home Assistant stand-in (mqtt.js) subscribed to a station's state. The figure is
 * the time from a station reading to its state (which carries `mowable`) at that subscriber, with
 * and without an attacker in the same run: an anonymous client that subscribes to `#`, publishes
 * 130 × 60 KB to itself and stops reading, a fresh one (a reconnect) before every reading. Before
 * the per-client bounds (broker.maxOutgoingBytesPerClient, broker.slowClientSeconds) the state
 * arrived up to 60 s late; the goal is at most 2 s more than the same run's baseline.
 */
import { connect, type Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import { LOOPBACK } from './lib/net.js';
import { atMost, measured, notMeasured } from './lib/report.js';
import { median } from './lib/stats.js';
import { sleep, waitFor } from './lib/time.js';

const FLOOD_MESSAGES = 130;
const PAYLOAD = Buffer.alloc(60 * 1024, 'x');
const STATE_TOPIC = 'mowability/diy/state';

/** An attacker: subscribes to `#`, stops reading once subscribed, then floods itself. */
async function slowSubscriber(port: number, clientId: string): Promise<Socket> {
  const socket = connect(port, LOOPBACK);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.once('connect', () => {
      socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId, keepalive: 60 }));
      socket.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: '#', qos: 0 }] }));
    });
    socket.once('close', () => reject(new Error('attacker closed before its SUBACK')));
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 5 && received[4]! >> 4 === 9) {
        socket.off('data', onData);
        socket.pause();
        resolve();
      }
    };
    socket.on('data', onData);
  });
  const flood = Array.from({ length: FLOOD_MESSAGES }, (_, i) =>
    mqttPacket.generate({ cmd: 'publish', topic: `attack/${clientId}/${i}`, payload: PAYLOAD, qos: 0, retain: false, dup: false }),
  );
  socket.write(Buffer.concat(flood));
  return socket;
}

/** Milliseconds from publishing a reading of `temperature` to its state at `ha`. */
async function stateLatency(station: MqttClient, ha: { temperature: number | undefined }, temperature: number): Promise<number> {
  const started = performance.now();
  await station.publishAsync('diy/weather', JSON.stringify({ t: temperature, r: 0 }), { qos: 1 });
  await waitFor(() => ha.temperature === temperature, {
    timeoutMs: 90_000,
    intervalMs: 5,
    what: `the state of ${temperature} °C at the subscriber`,
  });
  return performance.now() - started;
}

async function slowClientsDropped(httpPort: number): Promise<number> {
  const text = await (await fetch(`http://${LOOPBACK}:${httpPort}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith('mowability_broker_slow_clients_dropped_total '));
  return line ? Number(line.split(' ')[1]) : Number.NaN;
}

export const slowSubscriberBenchmark: Benchmark = {
  name: 'slowsub',
  title: 'mowable under the slow-subscriber attack: reading → state at another subscriber',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const goal = atMost(2000);
    if (!cliAvailable(context.repoRoot))
      return {
        figures: [notMeasured('slowsub.differenceMs', 'attack − baseline, worst reading', 'ms', 'dist/cli/main.js does not exist', goal)],
        details: {},
      };
    const rounds = context.quick ? 4 : 8;
    const daemon = await spawnDaemon({
      repoRoot: context.repoRoot,
      nodeArgs: context.daemonNodeArgs,
      env: { MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0' },
      configFile: {
        stations: [{ id: 'diy', name: 'DIY', format: 'json', topic: 'diy/weather', fields: { temperature: 't', precipitation_rate: 'r' } }],
      },
    });
    const sockets: Socket[] = [];
    const clients: MqttClient[] = [];
    try {
      await waitHealthy(daemon);
      const url = `mqtt://${LOOPBACK}:${daemon.brokerPort}`;
      const haClient = await mqtt.connectAsync(url, { clientId: 'bench-ha', reconnectPeriod: 0 });
      const station = await mqtt.connectAsync(url, { clientId: 'bench-station', reconnectPeriod: 0 });
      clients.push(haClient, station);
      const ha: { temperature: number | undefined } = { temperature: undefined };
      haClient.on('message', (_topic, payload) => {
        ha.temperature = (JSON.parse(payload.toString()) as { input?: { temperature?: number } }).input?.temperature;
      });
      await haClient.subscribeAsync(STATE_TOPIC, { qos: 1 });
      let temperature = 10;
      const baseline: number[] = [];
      for (let i = 0; i < rounds; i++) {
        baseline.push(await stateLatency(station, ha, (temperature += 1)));
        await sleep(300);
      }
      const attack: number[] = [];
      for (let i = 0; i < rounds; i++) {
        sockets.push(await slowSubscriber(daemon.brokerPort, `slowpoke${i}`));
        await sleep(300); // the flood is under way
        attack.push(await stateLatency(station, ha, (temperature += 1)));
      }
      const dropped = await slowClientsDropped(daemon.httpPort);
      const base = median(baseline);
      const worst = Math.max(...attack);
      const rounded = (values: number[]): string => values.map((v) => v.toFixed(0)).join(', ');
      return {
        figures: [
          measured(
            'slowsub.baselineMs',
            'reading → state, no attacker (median)',
            base,
            'ms',
            undefined,
            `${rounds} readings: ${rounded(baseline)}`,
          ),
          measured(
            'slowsub.attackMs',
            'reading → state, slow subscriber reconnecting (median)',
            median(attack),
            'ms',
            undefined,
            `${rounds} readings: ${rounded(attack)}`,
          ),
          measured(
            'slowsub.differenceMs',
            'attack − baseline, worst reading',
            worst - base,
            'ms',
            goal,
            `worst ${worst.toFixed(0)} ms against the median baseline ${base.toFixed(0)} ms`,
          ),
          measured('slowsub.dropped', 'slow clients disconnected (mowability_broker_slow_clients_dropped_total)', dropped, ''),
        ],
        details: { baseline, attack, dropped },
      };
    } finally {
      for (const socket of sockets) socket.destroy();
      for (const client of clients) await client.endAsync(true).catch(() => undefined);
      await daemon.child.stop();
      daemon.cleanup();
    }
  },
};
