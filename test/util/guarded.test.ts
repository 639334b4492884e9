import { describe, expect, it, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { guarded, logFailure, runGuarded } from '../../src/util/guarded.js';
import { createScheduler } from '../../src/util/scheduler.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { FakeClock, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';

describe('runGuarded / guarded', () => {
  it('reports a synchronous throw and a rejected promise, and never throws or rejects itself', async () => {
    const report = vi.fn();
    await expect(
      runGuarded(() => {
        throw new Error('sync');
      }, report),
    ).resolves.toBeUndefined();
    await expect(runGuarded(() => Promise.reject(new Error('async')), report)).resolves.toBeUndefined();
    await runGuarded(() => 42, report);
    await runGuarded(async () => 'fine', report);
    expect(report.mock.calls.map(([err]) => (err as Error).message)).toEqual(['sync', 'async']);
  });

  it('waits for the returned promise (so a caller can keep runs from overlapping)', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Released only in a later turn of the event loop: a runGuarded that did not wait would have resolved by then.
    setImmediate(release);
    await runGuarded(async () => {
      await gate;
      order.push('job');
    }, vi.fn());
    order.push('after');
    expect(order).toEqual(['job', 'after']);
  });

  it('a throwing timer callback is logged with its context instead of becoming an uncaught exception', async () => {
    const capture = captureLogger('info');
    setTimeout(
      guarded(
        () => {
          throw new Error('stray bug');
        },
        logFailure(capture.logger, 'test timer', { station: 'garden' }),
      ),
      1,
    );
    setTimeout(
      guarded(() => Promise.reject(new Error('stray rejection')), logFailure(capture.logger, 'test timer', { station: 'lawn' })),
      1,
    );
    await waitUntil(() => capture.lines().length === 2, 'both failures logged');
    expect(capture.lines()).toEqual([
      expect.objectContaining({
        level: 50,
        task: 'test timer',
        station: 'garden',
        msg: 'test timer failed',
        err: expect.objectContaining({ message: 'stray bug' }),
      }),
      expect.objectContaining({ level: 50, station: 'lawn', err: expect.objectContaining({ message: 'stray rejection' }) }),
    ]);
  });

  it('a failing reporter does not escape either', async () => {
    await expect(
      runGuarded(
        () => {
          throw new Error('first');
        },
        () => {
          throw new Error('reporter broke');
        },
      ),
    ).resolves.toBeUndefined();
  });

  it('the scheduler logs a failing job and keeps running it', async () => {
    const capture = captureLogger('info');
    const scheduler = createScheduler(capture.logger);
    let runs = 0;
    scheduler.add('flaky', '* * * * * *', () => {
      runs++;
      throw new Error(`run ${runs} failed`);
    });
    // Fake timers (and Date): cron's seconds pass at once.
    vi.useFakeTimers();
    scheduler.start();
    try {
      await vi.advanceTimersByTimeAsync(2_500);
      expect(runs).toBeGreaterThanOrEqual(2);
    } finally {
      await scheduler.stop();
      vi.useRealTimers();
    }
    const failures = capture.lines().filter((line) => line.msg === 'scheduled job failed');
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures[0]).toMatchObject({ job: 'flaky', module: 'scheduler' });
  });
});

/** A clock that can be made to fail, standing in for any bug inside a timer callback. */
class BreakableClock extends FakeClock {
  broken = false;
  override now(): number {
    if (this.broken) throw new Error('clock exploded inside a timer');
    return super.now();
  }
}

describe('the MQTT service survives a throwing timer callback', () => {
  mqttTest('the debounced recompute throws: logged with the station, and the next reading is processed', async ({ mqtt }) => {
    const capture = captureLogger('info');
    const clock = new BreakableClock(mqtt.clock.now());
    const station: StationConfig = { id: 'plain', name: 'Plain', format: 'fields', topic: 'plain/+' };
    const config = testMqttConfig({ stations: [station], station: { recomputeDebounceMs: 200 }, homeassistant: { discovery: false } });
    const { service, port } = await mqtt.start(config, { logger: capture.logger, clock });
    const client = (await mqtt.connect(port)).client;
    await client.publishAsync('plain/temperature', '21.5', { qos: 1 });
    await waitUntil(() => service.stats().accepted === 1, 'first reading accepted');
    clock.broken = true; // the debounce timer fires in ≤ 200 ms and hits the bug
    // The pipeline's per-station guard catches it: one station's failed recompute never stops the others.
    const failure = () =>
      capture.lines().find((line) => line.station === 'plain' && String(line.msg).startsWith('recompute of station plain failed'));
    await waitUntil(() => failure() !== undefined, 'the failure logged');
    clock.broken = false;
    expect(failure()).toMatchObject({
      level: 40,
      station: 'plain',
      err: expect.objectContaining({ message: 'clock exploded inside a timer' }),
    });
    // Still alive and working.
    clock.advance(60_000);
    await client.publishAsync('plain/temperature', '22', { qos: 1 });
    await waitUntil(() => service.stationState('plain')?.input.temperature === 22, 'state recomputed after the failure');
  });
});
