import mqtt from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { createMqttService, type MqttService } from '../../src/mqtt/service.js';
import { Database } from '../../src/store/database.js';
import { guarded, logFailure, runGuarded } from '../../src/util/guarded.js';
import { createScheduler } from '../../src/util/scheduler.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { FakeClock, mqttTempDir, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';

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
    await runGuarded(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('job');
    }, vi.fn());
    order.push('after');
    expect(order).toEqual(['job', 'after']);
  });

  it('a throwing timer callback is logged with its context instead of becoming an uncaught exception', async () => {
    const capture = captureLogger('info');
    setTimeout(
      guarded(() => {
        throw new Error('stray bug');
      }, logFailure(capture.logger, 'test timer', { station: 'garden' })),
      1,
    );
    setTimeout(guarded(() => Promise.reject(new Error('stray rejection')), logFailure(capture.logger, 'test timer', { station: 'lawn' })), 1);
    await waitUntil(() => capture.lines().length === 2, 'both failures logged');
    expect(capture.lines()).toEqual([
      expect.objectContaining({ level: 50, task: 'test timer', station: 'garden', msg: 'test timer failed', err: expect.objectContaining({ message: 'stray bug' }) }),
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
    scheduler.start();
    try {
      await waitUntil(() => runs >= 2, 'two runs', 5000);
    } finally {
      await scheduler.stop();
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

describe('the MQTT service survives a throwing timer callback (issue 8, item 14)', () => {
  const temp = mqttTempDir();
  let service: MqttService | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    for (const component of [...(service?.components ?? [])].reverse()) await component.stop();
    await database?.close();
    temp.cleanup();
  });

  it('the debounced recompute throws: logged with the station, and the next reading is processed', async () => {
    const capture = captureLogger('info');
    const clock = new BreakableClock();
    const station: StationConfig = { id: 'plain', name: 'Plain', format: 'fields', topic: 'plain/+' };
    database = await Database.open(temp.dbPath);
    service = createMqttService({
      config: testMqttConfig({ stations: [station], mqtt: { recomputeDebounceMs: 200 }, homeassistant: { discovery: false } }),
      database,
      logger: capture.logger,
      clock,
    });
    for (const component of service.components) await component.start();
    const port = service.brokerPort()!;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    try {
      await client.publishAsync('plain/temperature', '21.5', { qos: 1 });
      await waitUntil(() => service!.stats().accepted === 1, 'first reading accepted');
      clock.broken = true; // the debounce timer fires in ≤ 200 ms and hits the bug
      await waitUntil(() => capture.lines().some((line) => line.msg === 'recompute failed'), 'the failure logged');
      clock.broken = false;
      expect(capture.lines().find((line) => line.msg === 'recompute failed')).toMatchObject({
        level: 50,
        station: 'plain',
        err: expect.objectContaining({ message: 'clock exploded inside a timer' }),
      });
      // Still alive and working.
      clock.advance(60_000);
      await client.publishAsync('plain/temperature', '22', { qos: 1 });
      await waitUntil(() => service!.stationState('plain')?.input.temperature === 22, 'state recomputed after the failure');
    } finally {
      await client.endAsync();
    }
  });
});
