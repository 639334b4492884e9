/**
 * The one lifecycle contract of the daemon's parts, and the one place that
 * starts them in order and stops them in reverse (the composition root and
 * the test harnesses both use it, so they cannot drift apart).
 */
import type { Logger } from 'pino';

export interface LifecycleComponent {
  /** For logs only: nothing looks a component up by its name. */
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartedComponents {
  /** Stops every started component in reverse start order; logs and continues past failures. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Start failures already logged, by the innermost startInOrder: a component may start parts of
 * its own with startInOrder (the station side does), and the enclosing call rethrows the same
 * error, which must not be logged a second time under the enclosing component's name.
 */
const reportedStartFailures = new WeakSet<object>();

function logStartFailure(logger: Logger, component: LifecycleComponent, err: unknown): void {
  const reportable = typeof err === 'object' && err !== null;
  if (reportable && reportedStartFailures.has(err)) return;
  logger.error({ err, component: component.name }, 'component failed to start');
  if (reportable) reportedStartFailures.add(err);
}

/**
 * Starts `components` one after another. When one fails to start, it is logged with its name and
 * the cause, the ones already started are stopped in reverse order and the error is rethrown.
 */
export async function startInOrder(components: readonly LifecycleComponent[], logger: Logger): Promise<StartedComponents> {
  const started: LifecycleComponent[] = [];
  const stopStarted = async (): Promise<void> => {
    for (const component of [...started].reverse()) {
      try {
        await component.stop();
        logger.debug({ component: component.name }, 'component stopped');
      } catch (err) {
        logger.error({ err, component: component.name }, 'component failed to stop');
      }
    }
    started.length = 0;
  };

  for (const component of components) {
    try {
      await component.start();
      started.push(component);
      logger.debug({ component: component.name }, 'component started');
    } catch (err) {
      logStartFailure(logger, component, err);
      await stopStarted();
      throw err;
    }
  }
  let stopping: Promise<void> | undefined;
  return { stop: () => (stopping ??= stopStarted()) };
}
