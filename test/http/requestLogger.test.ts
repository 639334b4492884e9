import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyRequestLogger } from '../../src/http/requestLogger.js';
import { addKey, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

/** The capture logger, counting the children made of it (fastify makes the request loggers with child()). */
function countingChildren(level: string) {
  const capture = captureLogger(level);
  let children = 0;
  const child = Reflect.get(capture.logger, 'child') as typeof capture.logger.child;
  // Also on the children (they inherit it): each counts, and each makes its own children.
  capture.logger.child = function (this: typeof capture.logger, ...args: Parameters<typeof child>) {
    children++;
    return child.apply(this, args);
  } as typeof child;
  return { capture, children: () => children };
}

describe('request loggers made on first use', () => {
  let h: HttpHarness;
  let counting: ReturnType<typeof countingChildren>;
  beforeEach(async () => {
    counting = countingChildren('debug');
    h = await startHttpHarness({ logger: counting.capture.logger });
  });
  afterEach(async () => h.close());

  it('makes no request logger for a request that logs nothing through it', async () => {
    const key = (await addKey(h)).key;
    const before = counting.children();
    for (let i = 0; i < 5; i++) {
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${key}` },
        payload: MINIMAL_INPUT,
      });
      expect(response.statusCode).toBe(200);
    }
    expect(counting.children()).toBe(before);
    // The access lines are still written, one per request.
    expect(counting.capture.lines().filter((line) => line.msg === 'request')).toHaveLength(5);
  });

  it("writes a rejected request's line through its own logger, with the request id as before", async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: 'Bearer mow_nosuchkey' },
      payload: MINIMAL_INPUT,
    });
    expect(response.statusCode).toBe(401);
    const rejected = counting.capture.lines().filter((line) => line.msg === 'request rejected');
    expect(rejected).toHaveLength(1);
    const access = counting.capture.lines().find((line) => line.msg === 'request');
    expect(rejected[0]).toMatchObject({ level: 20, module: 'http', statusCode: 401, reqId: access?.reqId });
    expect(typeof rejected[0]?.reqId).toBe('string');
  });
});

describe('lazyRequestLogger', () => {
  it('writes every level through one child with the bindings and options it was given, made at the first line', () => {
    const counting = countingChildren('trace');
    const parent: FastifyBaseLogger = counting.capture.logger;
    const logger = lazyRequestLogger(parent, { reqId: 'req-7' }, { level: 'debug' });
    expect(counting.children()).toBe(0);
    expect(logger.level).toBe('debug');
    logger.trace('not at debug');
    logger.debug({ a: 1 }, 'debug line');
    logger.info('info line');
    logger.warn('warn line');
    logger.error('error line');
    logger.fatal('fatal line');
    logger.silent('never');
    expect(counting.children()).toBe(1);
    const lines = counting.capture.lines();
    expect(lines.map((line) => [line.level, line.msg, line.reqId])).toEqual([
      [20, 'debug line', 'req-7'],
      [30, 'info line', 'req-7'],
      [40, 'warn line', 'req-7'],
      [50, 'error line', 'req-7'],
      [60, 'fatal line', 'req-7'],
    ]);
    expect(lines[0]).toMatchObject({ a: 1 });
  });

  it("takes its parent's level until a line or a level of its own makes the child, and makes children of that child", () => {
    const counting = countingChildren('info');
    const logger = lazyRequestLogger(counting.capture.logger, { reqId: 'req-8' }, {});
    expect(logger.level).toBe('info');
    logger.level = 'warn';
    expect(counting.children()).toBe(1);
    expect(logger.level).toBe('warn');
    logger.info('dropped at warn');
    logger.child({ part: 'x' }).warn('from a grandchild');
    expect(counting.capture.lines().map((line) => [line.msg, line.reqId, line.part])).toEqual([['from a grandchild', 'req-8', 'x']]);
  });
});
