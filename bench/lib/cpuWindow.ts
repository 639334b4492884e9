/**
 * A process's CPU over a window, measured from outside: per-thread schedstat (ns, `readThreadCpuNs`),
 * which resolves an idle second's fraction of a millisecond where /proc/<pid>/stat counts 10 ms
 * ticks. The household and readingPath benches open their windows with it and take CPU per reading
 * as what a loaded window used beyond an idle window's rate.
 */
import { readThreadCpuNs } from './proc.js';

export interface CpuWindow {
  /** CPU of every thread in the window. */
  cpuSeconds: number;
  /** The window's length. */
  seconds: number;
}

/** Opens a window on `pid` now; the function it returns closes it and gives its CPU and length. */
export function openCpuWindow(
  pid: number,
  read: (pid: number) => number = readThreadCpuNs,
  nowMs: () => number = () => performance.now(),
): () => CpuWindow {
  const cpuBeforeNs = read(pid);
  const startedMs = nowMs();
  return () => ({ cpuSeconds: (read(pid) - cpuBeforeNs) / 1e9, seconds: (nowMs() - startedMs) / 1000 });
}

/** CPU per event in ms: what the loaded window used beyond the idle window's rate over as long, per event (at least one). */
export function cpuPerEventMs(loaded: CpuWindow, idle: CpuWindow, events: number): number {
  return ((loaded.cpuSeconds - idle.cpuSeconds * (loaded.seconds / idle.seconds)) / Math.max(1, events)) * 1000;
}
