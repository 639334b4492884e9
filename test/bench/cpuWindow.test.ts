import { describe, expect, it } from 'vitest';
import { cpuPerEventMs, openCpuWindow } from '../../bench/lib/cpuWindow.js';

describe("the benches' CPU window", () => {
  it('gives the CPU and the length between opening and closing', () => {
    let cpuNs = 5e9;
    let nowMs = 1000;
    const close = openCpuWindow(
      42,
      (pid) => (pid === 42 ? cpuNs : Number.NaN),
      () => nowMs,
    );
    cpuNs += 0.25e9;
    nowMs += 60_000;
    expect(close()).toEqual({ cpuSeconds: 0.25, seconds: 60 });
  });

  it("reads this process's threads from /proc (schedstat): a busy loop shows", () => {
    const close = openCpuWindow(process.pid);
    const before = process.cpuUsage();
    // Busy until the kernel has counted 100 ms of CPU (not 100 ms of wall time: the machine may be loaded).
    while (process.cpuUsage(before).user < 100_000) {
      // busy: CPU on the main thread
    }
    const window = close();
    expect(window.seconds).toBeGreaterThan(0);
    expect(window.cpuSeconds).toBeGreaterThan(0.09);
  });

  it('takes CPU per event as the loaded window beyond the idle rate over as long', () => {
    // Idle 0.06 CPU-s in 60 s (1 ms/s); loaded 0.5 CPU-s in 30 s: 0.03 of it idle, 0.47 for 100 events.
    expect(cpuPerEventMs({ cpuSeconds: 0.5, seconds: 30 }, { cpuSeconds: 0.06, seconds: 60 }, 100)).toBeCloseTo(4.7, 10);
    // No events: per one, not infinity.
    expect(cpuPerEventMs({ cpuSeconds: 0.5, seconds: 30 }, { cpuSeconds: 0.06, seconds: 60 }, 0)).toBeCloseTo(470, 10);
  });
});
