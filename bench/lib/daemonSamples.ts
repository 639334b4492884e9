/**
 * What a soak samples of a running daemon: RSS from /proc, V8's heap, external memory and array
 * buffers and the clock-step counter from its /metrics (Prometheus text), its thread CPU and the
 * size of its SQLite write-ahead log.
 */
import { statSync } from 'node:fs';
import { LOOPBACK } from './net.js';
import { MIB, readMemory, readThreadCpuNs } from './proc.js';

export interface DaemonSample {
  /** Wall seconds since the daemon started. */
  wallS: number;
  /** Daemon hours since it started (its accelerated clock). */
  daemonH: number;
  rssMb: number;
  heapUsedMb: number;
  /** V8's heap as committed (used or not): what a start-up burst leaves reserved. */
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  cpuS: number;
  walMb: number;
  clockSteps: number;
  /** Station messages the daemon accepted into the history so far. */
  accepted: number;
}

/** The value of the first sample of `name` (no labels) in Prometheus text, NaN when absent. */
export function metricValue(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([^ \\n]+)`, 'm').exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

async function metricsText(port: number): Promise<string> {
  try {
    const response = await fetch(`http://${LOOPBACK}:${port}/metrics`, { signal: AbortSignal.timeout(5000) });
    return await response.text();
  } catch {
    return '';
  }
}

function fileMb(path: string): number {
  try {
    return statSync(path).size / MIB;
  } catch {
    return 0;
  }
}

export async function sampleDaemon(
  pid: number,
  httpPort: number,
  walPath: string,
  at: { wallS: number; daemonH: number },
): Promise<DaemonSample> {
  const text = await metricsText(httpPort);
  return {
    ...at,
    rssMb: readMemory(pid).rssBytes / MIB,
    heapUsedMb: metricValue(text, 'nodejs_heap_size_used_bytes') / MIB,
    heapTotalMb: metricValue(text, 'nodejs_heap_size_total_bytes') / MIB,
    externalMb: metricValue(text, 'nodejs_external_memory_bytes') / MIB,
    arrayBuffersMb: metricValue(text, 'nodejs_array_buffers_bytes') / MIB,
    cpuS: readThreadCpuNs(pid) / 1e9,
    walMb: fileMb(walPath),
    clockSteps: metricValue(text, 'mowability_clock_steps_total'),
    accepted: metricValue(text, 'mowability_mqtt_station_messages_accepted_total'),
  };
}
