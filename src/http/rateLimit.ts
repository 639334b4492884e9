/**
 * The per-client rate limit (http.rateLimit): a fixed window per client key
 * (one IPv4 address, one IPv6 /64), counted before anything else of the
 * request runs, so failed authentication counts too.
 *
 * It answers like @fastify/rate-limit did (same headers, same window rule)
 * but as one synchronous hook: the plugin's async hook cost four promises per
 * request, more than counting itself. On every limited response:
 * x-ratelimit-limit, x-ratelimit-remaining and x-ratelimit-reset (seconds
 * until the window ends); a refused request also gets Retry-After and the
 * 429 envelope. Routes with `config: { rateLimit: false }` are exempt.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { HttpError, MESSAGES, type RequestGuard } from './errors.js';
import { WindowCounter } from './windowCounter.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route is not rate-limited (monitoring must keep working while a client is throttled). */
    rateLimit?: false;
  }
}

export const RATE_LIMIT_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
  retryAfter: 'retry-after',
} as const;

export interface RateLimitOptions {
  /** Requests per key and window; the next one is refused with 429. */
  max: number;
  timeWindowMs: number;
  /** The client's bucket (./clientAddress.ts rateLimitKey). */
  keyOf: (request: FastifyRequest) => string;
  now: () => number;
}

/** Counts the request and sets the headers; throws the 429 once the window's budget is spent. */
export function createRateLimitCheck(options: RateLimitOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const { max, keyOf, now } = options;
  const counter = new WindowCounter(options.timeWindowMs);
  return (request, reply) => {
    const { count, retryAfterSeconds } = counter.hit(keyOf(request), now());
    reply.header(RATE_LIMIT_HEADERS.limit, max);
    reply.header(RATE_LIMIT_HEADERS.remaining, Math.max(0, max - count));
    reply.header(RATE_LIMIT_HEADERS.reset, retryAfterSeconds);
    if (count > max) throw new HttpError(429, MESSAGES.tooManyRequests, { [RATE_LIMIT_HEADERS.retryAfter]: String(retryAfterSeconds) });
  };
}

/**
 * Adds the check as an onRequest hook to every route registered from now on
 * (except exempt ones); returns it as a guard for the not-found handler and
 * for requests the router rejects, which share the same counters.
 */
export function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): RequestGuard {
  const check = createRateLimitCheck(options);
  // Callback style; a synchronous throw reaches the error handler.
  const hook: onRequestHookHandler = (request, reply, done) => {
    check(request, reply);
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit === false) return;
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
  // A throw inside an async function becomes the rejection the guard's callers await.
  return async (request, reply) => {
    check(request, reply);
  };
}
