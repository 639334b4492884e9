import { afterEach, describe, expect, it } from 'vitest';
import { HTTP_BENCH_BODY } from '../../bench/lib/inputs.js';
import { sameBytesApp, sampleOf } from '../../bench/lib/sameBytesServer.js';
import { addKey, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

/** Header names and value lengths, less those whose value changes from answer to answer by nature (Date). */
function headerShape(headers: Record<string, unknown>): [string, number][] {
  return Object.entries(headers)
    .filter(([name]) => name !== 'date')
    .map(([name, value]) => [name, String(value).length]);
}

describe("the HTTP bench's fair baseline (/same/calculateFull)", () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('answers the real calculate request with the same status, body and headers (the limiter’s included)', async () => {
    h = await startHttpHarness();
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${(await addKey(h)).key}` };
    const real = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers, payload: HTTP_BENCH_BODY });
    expect(real.statusCode).toBe(200);
    const bare = sameBytesApp({ calculate: sampleOf(real) });
    try {
      const full = await bare.inject({ method: 'POST', url: '/same/calculateFull', headers, payload: HTTP_BENCH_BODY });
      expect(full.statusCode).toBe(200);
      expect(full.rawPayload.equals(real.rawPayload)).toBe(true);
      expect(headerShape(full.headers)).toEqual(headerShape(real.headers));
      expect(Object.keys(real.headers).filter((name) => name.startsWith('x-ratelimit-'))).toHaveLength(3);
      // The earlier baseline: same body, fewer headers (why the fair one exists).
      const bytesOnly = await bare.inject({ method: 'POST', url: '/same/calculate', headers, payload: HTTP_BENCH_BODY });
      expect(bytesOnly.rawPayload.equals(real.rawPayload)).toBe(true);
      expect(headerShape(bytesOnly.headers).length).toBe(headerShape(real.headers).length - 3);
    } finally {
      await bare.close();
    }
  });

  it('parses the JSON body before it answers: a body that is not a JSON object gets no answer bytes', async () => {
    const bare = sameBytesApp({ calculate: { statusCode: 200, body: '{}', contentType: 'application/json', limitHeaders: {} } });
    try {
      const headers = { 'content-type': 'application/json' };
      expect((await bare.inject({ method: 'POST', url: '/same/calculateFull', headers, payload: '{"a":1}' })).statusCode).toBe(200);
      expect((await bare.inject({ method: 'POST', url: '/same/calculateFull', headers, payload: '{"a":' })).statusCode).toBe(400);
      expect((await bare.inject({ method: 'POST', url: '/same/calculateFull', headers, payload: '5' })).statusCode).toBe(500);
    } finally {
      await bare.close();
    }
  });
});
