/**
 * MQTT load: an mqtt.js publisher that sends a list of readings as fast as
 * the broker acknowledges them, and a timer that stops when a probe says the
 * receiving side has processed them all.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { LOOPBACK } from './net.js';
import { nowMs, sleep } from './time.js';

export interface Reading {
  topic: string;
  payload: string;
}

export async function connectPublisher(port: number, clientId: string): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://${LOOPBACK}:${port}`, { clientId, reconnectPeriod: 0, clean: true });
}

/** Publishes all readings (QoS 1, up to `window` unacknowledged at a time). */
export async function publishAll(client: MqttClient, readings: readonly Reading[], window = 100): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < readings.length) {
      const reading = readings[next++] as Reading;
      await client.publishAsync(reading.topic, reading.payload, { qos: 1 });
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
}

/** Publishes at a fixed rate (readings per second) for the given readings; returns the achieved rate. */
export async function publishAtRate(client: MqttClient, readings: readonly Reading[], perSecond: number): Promise<number> {
  const started = nowMs();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < readings.length; i++) {
    const dueMs = (i / perSecond) * 1000;
    const waitMs = dueMs - (nowMs() - started);
    if (waitMs > 1) await sleep(waitMs);
    const reading = readings[i] as Reading;
    pending.push(client.publishAsync(reading.topic, reading.payload, { qos: 1 }));
  }
  await Promise.all(pending);
  return (readings.length / (nowMs() - started)) * 1000;
}

/**
 * Time from the first publish until `processed()` reports every reading done.
 * Returns readings per second, or NaN when the deadline passed first.
 */
export async function timeIngest(
  client: MqttClient,
  readings: readonly Reading[],
  processed: () => Promise<number>,
  options: { timeoutMs: number; pollMs?: number },
): Promise<{ readingsPerSecond: number; processed: number; elapsedMs: number }> {
  const before = await processed();
  const started = nowMs();
  const publishing = publishAll(client, readings);
  let done = before;
  for (;;) {
    done = await processed();
    if (done - before >= readings.length) break;
    if (nowMs() - started > options.timeoutMs) break;
    await sleep(options.pollMs ?? 10);
  }
  await publishing;
  const elapsedMs = nowMs() - started;
  const count = done - before;
  return { readingsPerSecond: count >= readings.length ? (count / elapsedMs) * 1000 : Number.NaN, processed: count, elapsedMs };
}
