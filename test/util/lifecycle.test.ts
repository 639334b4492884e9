import { describe, expect, it } from 'vitest';
import { startInOrder, type LifecycleComponent } from '../../src/util/lifecycle.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

/** A component that records its start and stop in `events`, and fails to start with `failure`. */
function part(name: string, events: string[], failure?: Error): LifecycleComponent {
  return {
    name,
    async start() {
      if (failure) throw failure;
      events.push(`start ${name}`);
    },
    async stop() {
      events.push(`stop ${name}`);
    },
  };
}

function startFailures(lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return lines.filter((line) => line.msg === 'component failed to start');
}

describe('startInOrder', () => {
  it('stops the started parts in reverse when one fails, and logs the failing part with its cause', async () => {
    const log = captureLogger();
    const events: string[] = [];
    const cause = new Error('port taken');
    await expect(
      startInOrder([part('a', events), part('b', events), part('c', events, cause), part('d', events)], log.logger),
    ).rejects.toBe(cause);
    expect(events).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    const failures = startFailures(log.lines());
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ component: 'c', err: { message: 'port taken' } });
  });

  it('logs a failure inside a component that starts its own parts once, under the inner part', async () => {
    const log = captureLogger();
    const events: string[] = [];
    const cause = new Error('broker port taken');
    // Like the station side: a component whose start() is itself a startInOrder of its parts.
    const side: LifecycleComponent = {
      name: 'station-side',
      async start() {
        await startInOrder([part('station-pipeline', events), part('mqtt-broker', events, cause)], log.logger);
      },
      async stop() {},
    };
    await expect(startInOrder([part('database', events), side], log.logger)).rejects.toBe(cause);
    expect(events).toEqual(['start database', 'start station-pipeline', 'stop station-pipeline', 'stop database']);
    const failures = startFailures(log.lines());
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ component: 'mqtt-broker', err: { message: 'broker port taken' } });
  });
});
