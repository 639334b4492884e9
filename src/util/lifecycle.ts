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
 * Parts started one at a time, stopped in reverse. The composition root starts each part with the
 * values the earlier ones returned (the database once it is open, the station side once it
 * runs), so nothing is read before it exists. When a start fails, it is logged with the part's
 * name and cause, the parts already started are stopped in reverse order and the error is rethrown.
 */
export class StartedStack implements StartedComponents {
  readonly #logger: Logger;
  readonly #started: LifecycleComponent[] = [];
  #stopping: Promise<void> | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Starts one component; on failure stops everything started before it and rethrows. */
  async start(component: LifecycleComponent): Promise<void> {
    try {
      await component.start();
    } catch (err) {
      logStartFailure(this.#logger, component, err);
      await this.#stopStarted();
      throw err;
    }
    this.#started.push(component);
    this.#logger.debug({ component: component.name }, 'component started');
  }

  /** Starts the components in order. */
  async startAll(components: readonly LifecycleComponent[]): Promise<void> {
    for (const component of components) await this.start(component);
  }

  /** Opens a part that is a value (a database): `close` is its stop. */
  async open<T>(name: string, open: () => Promise<T>, close: (value: T) => Promise<void>): Promise<T> {
    let value: T | undefined;
    await this.start({
      name,
      start: async () => {
        value = await open();
      },
      stop: () => close(value as T),
    });
    return value as T;
  }

  /** Stops every started component in reverse start order; logs and continues past failures. Idempotent. */
  stop(): Promise<void> {
    return (this.#stopping ??= this.#stopStarted());
  }

  async #stopStarted(): Promise<void> {
    for (const component of this.#started.splice(0).reverse()) {
      try {
        await component.stop();
        this.#logger.debug({ component: component.name }, 'component stopped');
      } catch (err) {
        this.#logger.error({ err, component: component.name }, 'component failed to stop');
      }
    }
  }
}

/** Starts `components` one after another (a StartedStack of them). */
export async function startInOrder(components: readonly LifecycleComponent[], logger: Logger): Promise<StartedComponents> {
  const stack = new StartedStack(logger);
  await stack.startAll(components);
  return stack;
}
