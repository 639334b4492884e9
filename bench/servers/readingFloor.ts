/**
 * The design's floor for one reading, run as a child process: what any daemon of this design must do
 * per rtl_433 reading, and nothing else. An aedes broker listens on loopback (the station's publisher
 * connects over TCP, as rtl_433 does); the reading is taken from the broker in process (no client,
 * no packets of its own), parsed, calculated by the product's core, serialised as a state with the
 * reading and the answer, and published retained (QoS 1) back into the broker. No history, no
 * debounce timer, no units, no logging, no metrics: the daemon's readings part over this floor is
 * what the daemon's own structure costs.
 *
 * IPC through ./ipcChild.ts: sends {port} when ready, answers "count" with {count},
 * exits on "stop".
 */
import type { AedesPublishPacket } from 'aedes';
import { calculate } from '../../src/core/index.js';
import { answerParent, runHelper } from './ipcChild.js';
import { listenLoopbackBroker } from './loopbackBroker.js';

const topic = process.argv[2] ?? 'rtl_433/bench/events';
/**
 * BENCH_FLOOR_DEBOUNCE_MS > 0: the state is computed and published that long after the reading, from
 * a timer (as the daemon's `station.recomputeDebounceMs`, docs/mqtt.md: "Recomputed 1 s after new
 * readings"), so the floor pays the second wake-up per reading the product's promise implies.
 */
const debounceMs = Number(process.env.BENCH_FLOOR_DEBOUNCE_MS ?? 0);

interface Rtl433Event {
  time?: string;
  model?: string;
  id?: number;
  temperature_C?: number;
  humidity?: number;
  wind_avg_m_s?: number;
  wind_max_m_s?: number;
  rain_mm?: number;
}

async function main(): Promise<void> {
  const { broker, port, close } = await listenLoopbackBroker();
  let count = 0;
  const deliver = (packet: AedesPublishPacket, done: () => void): void => {
    done();
    if (debounceMs > 0) setTimeout(() => publishState(packet), debounceMs);
    else publishState(packet);
  };
  const publishState = (packet: AedesPublishPacket): void => {
    const event = JSON.parse(packet.payload.toString()) as Rtl433Event;
    if (event.model === undefined || event.id === undefined) return;
    const nowMs = Date.now();
    const input: Record<string, number> = { temperature: event.temperature_C ?? Number.NaN, precipitation_rate: 0 };
    if (event.humidity !== undefined) input.humidity = event.humidity;
    if (event.wind_avg_m_s !== undefined) input.wind_speed = event.wind_avg_m_s * 3.6;
    if (event.wind_max_m_s !== undefined) input.wind_gusts = event.wind_max_m_s * 3.6;
    const result = calculate(input, { timeZone: 'UTC', hemisphere: 'north', nowMs });
    const state = JSON.stringify({ station: `bench${event.id - 100}`, at: new Date(nowMs).toISOString(), reading: event, result });
    broker.publish(
      { cmd: 'publish', topic: `mowability/bench${event.id - 100}/state`, payload: Buffer.from(state), qos: 1, retain: true, dup: false },
      () => undefined,
    );
    count++;
  };
  await new Promise<void>((resolve) => broker.subscribe(topic, deliver, resolve));
  answerParent(
    port,
    () => count,
    async () => {
      await close();
    },
  );
}

runHelper(main);
