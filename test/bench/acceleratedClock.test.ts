import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { acceleratedEnv, DaemonClock, libfaketimeAvailable } from '../../bench/lib/acceleratedClock.js';
import { parseArgs } from '../../bench/lib/args.js';
import { metricValue } from '../../bench/lib/daemonSamples.js';

const run = promisify(execFile);

describe('the accelerated soak clock', () => {
  it("computes the daemon's time from the wall clock and the speed-up", () => {
    let wall = 1_000_000;
    const clock = new DaemonClock(20, 1_000_000, () => wall);
    wall += 3_000;
    expect(clock.now()).toBe(1_060_000);
    wall += 180_000 - 3_000;
    expect(clock.hours()).toBe(1);
    expect(clock.wallMs(16_000)).toBe(800);
    expect(() => acceleratedEnv(0.5)).toThrow(/at least 1/);
  });

  // The premise of `npm run soak -- --speed N`: under libfaketime a node process's wall clock, its
  // monotonic clock and its timers all run N times faster (libuv waits in epoll_wait, whose timeout
  // libfaketime divides by N). Without the timeout scaling the 10 s timer would take 10 s of wall time.
  it.runIf(libfaketimeAvailable())('speeds up Date, performance.now and timers of a node child alike', async () => {
    const script =
      'const d=Date.now(),p=performance.now(),h=process.hrtime.bigint();setTimeout(()=>console.log(JSON.stringify({date:Date.now()-d,perf:performance.now()-p,hr:Number(process.hrtime.bigint()-h)/1e6})),10000)';
    const started = performance.now();
    const { stdout } = await run(process.execPath, ['-e', script], { env: { ...process.env, ...acceleratedEnv(20) }, timeout: 8_000 });
    const wallMs = performance.now() - started;
    const seen = JSON.parse(stdout) as { date: number; perf: number; hr: number };
    // Each clock saw the 10 s pass, in well under 10 s of wall time (a loaded machine delays the child's start, not its pace).
    for (const value of Object.values(seen)) expect(value).toBeGreaterThanOrEqual(10_000);
    expect(wallMs).toBeLessThan(6_000);
  });

  it('reads one unlabelled sample from Prometheus text, NaN when absent', () => {
    const text = '# HELP nodejs_heap_size_used_bytes x\nnodejs_heap_size_used_bytes 1234.5\nmowability_clock_steps_total{a="b"} 2\n';
    expect(metricValue(text, 'nodejs_heap_size_used_bytes')).toBe(1234.5);
    expect(metricValue(text, 'mowability_clock_steps_total')).toBe(2);
    expect(metricValue(text, 'nodejs_array_buffers_bytes')).toBeNaN();
  });

  it('parses the soak options', () => {
    const options = parseArgs(['--speed', '20', '--hours', '24', '--snapshot-hours', '2,22'], { resultsDir: '/tmp/r' });
    expect(options).toMatchObject({ speed: 20, hours: 24, snapshotHours: [2, 22] });
    expect(parseArgs([], { resultsDir: '/tmp/r' })).toMatchObject({ speed: undefined, hours: 24, snapshotHours: [2, 22] });
    expect(parseArgs(['--snapshot-hours', ''], { resultsDir: '/tmp/r' }).snapshotHours).toEqual([]);
    expect(() => parseArgs(['--speed', '0'], { resultsDir: '/tmp/r' })).toThrow(/--speed/);
    expect(() => parseArgs(['--hours', 'x'], { resultsDir: '/tmp/r' })).toThrow(/--hours/);
  });
});
