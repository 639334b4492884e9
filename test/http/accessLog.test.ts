/** http.accessLog: the per-request line can go to debug or away; error logs stay. */
import { describe, expect, it } from 'vitest';
import { addKey, MINIMAL_INPUT, startHttpHarness } from '../helpers/httpApp.js';
import { createAccessLogger } from '../../src/util/logger.js';
import { isPageTraffic } from '../../src/http/accessLog.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

const failing = () => {
  throw new Error('core failure for the log test');
};

async function run(accessLog: string | undefined, level: string, accessLines?: ReturnType<typeof captureLogger>) {
  const log = captureLogger(level);
  const env: Record<string, string> = accessLog === undefined ? {} : { MOWABILITY_HTTP_ACCESS_LOG: accessLog };
  const overrides = { calculate: failing, ...(accessLines ? { accessLogger: accessLines.logger } : {}) };
  const h = await startHttpHarness({ logger: log.logger, env, overrides });
  try {
    const { key } = await addKey(h, 'access-log');
    const ok = await h.app.inject({ method: 'GET', url: '/health' });
    const broken = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: `Bearer ${key}` },
      payload: MINIMAL_INPUT,
    });
    expect([ok.statusCode, broken.statusCode]).toEqual([200, 500]);
  } finally {
    await h.close();
  }
  const lines = [...log.lines(), ...(accessLines?.lines() ?? [])];
  return {
    requests: lines.filter((line) => line.msg === 'request'),
    errors: lines.filter((line) => line.msg === 'unexpected error'),
    main: log.lines(),
  };
}

describe('http.accessLog', () => {
  it("info: the status page's polling and files go to debug; other requests and page errors stay at info", async () => {
    const run = async (level: string) => {
      const log = captureLogger(level);
      const h = await startHttpHarness({ logger: log.logger });
      try {
        for (const url of ['/', '/assets/app.js', '/v1/stations', '/health', '/assets/missing.js'])
          await h.app.inject({ method: 'GET', url });
      } finally {
        await h.close();
      }
      return log
        .lines()
        .filter((line) => line.msg === 'request')
        .map((line) => [line.level, line.path, line.statusCode]);
    };
    expect(await run('info')).toEqual([
      [30, '/health', 200],
      [30, '/assets/missing.js', 404],
    ]);
    expect((await run('debug')).filter(([level]) => level === 20).map(([, path]) => path)).toEqual(['/', '/assets/app.js', '/v1/stations']);
    expect(isPageTraffic('GET', '/v1/stations/:id/history', 200)).toBe(true);
    expect(isPageTraffic('GET', '/v1/stations/:id', 304)).toBe(true);
    expect(isPageTraffic('POST', '/v1/stations', 200)).toBe(false);
    expect(isPageTraffic('GET', '/v1/calculate', 200)).toBe(false);
  });

  it('http.accessLogSample: one answered request in N is written, every refused one is', async () => {
    const log = captureLogger('info');
    const h = await startHttpHarness({ logger: log.logger, env: { MOWABILITY_HTTP_ACCESS_LOG_SAMPLE: '3' } });
    try {
      for (let i = 0; i < 7; i++) {
        await h.app.inject({ method: 'GET', url: '/health' });
        if (i === 1 || i === 2) await h.app.inject({ method: 'GET', url: `/nowhere-${i}` });
      }
      const unauthorized = await h.app.inject({ method: 'POST', url: '/v1/calculate', payload: MINIMAL_INPUT });
      expect(unauthorized.statusCode).toBe(401);
    } finally {
      await h.close();
    }
    const requests = log.lines().filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.path, line.statusCode])).toEqual([
      ['/health', 200],
      ['/nowhere-1', 404],
      ['/nowhere-2', 404],
      ['/health', 200],
      ['/health', 200],
      ['/v1/calculate', 401],
    ]);
  });

  it('info (the default): one info line per request', async () => {
    const { requests, errors } = await run(undefined, 'info');
    expect(requests.map((line) => [line.level, line.path, line.statusCode])).toEqual([
      [30, '/health', 200],
      [30, '/v1/calculate', 500],
    ]);
    expect(errors).toHaveLength(1);
  });

  it('the line has the fields and order it had from the request logger, the same request id as the error line, and no redaction to undo', async () => {
    const { requests, errors } = await run(undefined, 'info');
    const line = requests[1] ?? {};
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'service',
      'module',
      'reqId',
      'method',
      'path',
      'statusCode',
      'responseTimeMs',
      'clientAddress',
      'msg',
    ]);
    expect(line).toMatchObject({
      service: 'mowability',
      module: 'http',
      method: 'POST',
      path: '/v1/calculate',
      statusCode: 500,
      clientAddress: '127.0.0.1',
    });
    expect(line.reqId).toBe(errors[0]?.reqId);
    expect(line.reqId).not.toBe(requests[0]?.reqId);
  });

  it('debug: the line is written at debug, so the shipped info level skips it; the error log stays', async () => {
    const atInfo = await run('debug', 'info');
    expect(atInfo.requests).toEqual([]);
    expect(atInfo.errors).toHaveLength(1);
    expect(atInfo.errors[0]).toMatchObject({ level: 50, path: '/v1/calculate' });
    const atDebug = await run('debug', 'debug');
    expect(atDebug.requests.map((line) => [line.level, line.path])).toEqual([
      [20, '/health'],
      [20, '/v1/calculate'],
    ]);
  });

  it('off: no access line even at trace; the error log stays', async () => {
    const { requests, errors } = await run('off', 'trace');
    expect(requests).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it("the daemon's access logger (written in blocks) gets the lines, field for field as before; errors stay on the main logger", async () => {
    const accessLines = captureLogger('info', createAccessLogger);
    const { requests, main } = await run(undefined, 'info', accessLines);
    expect(requests.map((line) => [line.level, line.path, line.statusCode])).toEqual([
      [30, '/health', 200],
      [30, '/v1/calculate', 500],
    ]);
    expect(Object.keys(requests[1] ?? {})).toEqual([
      'level',
      'time',
      'service',
      'module',
      'reqId',
      'method',
      'path',
      'statusCode',
      'responseTimeMs',
      'clientAddress',
      'msg',
    ]);
    expect(accessLines.lines().every((line) => line.msg === 'request')).toBe(true);
    expect(main.map((line) => line.msg)).toEqual(['unexpected error']);
  });
});
