/**
 * Each request's logger (`request.log`, `reply.log`), made on first use. fastify makes a pino child
 * with the request id for every request, although with request logging off (./server.ts; the access
 * line has its own logger, ./accessLog.ts) almost none writes through it: only a rejected or failed
 * request does (./errors.ts). Making the child costs about as much as the access line itself, so
 * here it is made only when a request logs, with the same bindings and options: the lines read
 * exactly as before.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LogArguments = [unknown, ...unknown[]];

class LazyRequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The request's pino child, made once. */
  get made(): FastifyBaseLogger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  get level(): string {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  fatal(...args: LogArguments): void {
    Reflect.apply(this.made.fatal, this.made, args);
  }

  error(...args: LogArguments): void {
    Reflect.apply(this.made.error, this.made, args);
  }

  warn(...args: LogArguments): void {
    Reflect.apply(this.made.warn, this.made, args);
  }

  info(...args: LogArguments): void {
    Reflect.apply(this.made.info, this.made, args);
  }

  debug(...args: LogArguments): void {
    Reflect.apply(this.made.debug, this.made, args);
  }

  trace(...args: LogArguments): void {
    Reflect.apply(this.made.trace, this.made, args);
  }

  silent(...args: LogArguments): void {
    Reflect.apply(this.made.silent, this.made, args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/** fastify's `childLoggerFactory`: the request's logger, made when something logs through it. */
export function lazyRequestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, options);
}
