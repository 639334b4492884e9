/**
 * The forecast client against hostile answers from a fake server on loopback:
 * compression bombs (gzip, deflate, br) and endless chunked bodies without
 * Content-Length, plain and compressed. Each fetch must fail with a reason that
 * names the limit, long before the timeout, without retrying, and the memory it
 * takes while reading must stay near the limit, not near what the server sends.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, OpenMeteoClient, type FetchOutcome } from '../../src/openmeteo/openMeteoClient.js';
import { waitUntil } from '../helpers/wait.js';
import { FakeOpenMeteo, compressionBomb, type Encoding } from '../forecast/fakeOpenMeteo.js';

const berlin = { latitude: 52.52, longitude: 13.41, elevation: 38 };
const MIB = 1024 * 1024;
/** What a bomb inflates to: 32 times the limit. */
const BOMB_BYTES = 64 * MIB;
/**
 * Far above the limit (the fake server shares the process, and garbage is collected when V8 likes), far
 * below what the attacks cost without a bound: a bomb read whole is 64 MiB of chunks plus its 64 MiB string.
 */
const MEMORY_BOUND_BYTES = 48 * MIB;
const TIMEOUT_MS = 2500;
const tooLarge = `the response is larger than ${MAX_RESPONSE_BYTES} bytes (after decoding); reading stopped there`;

const used = (): number => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/** The outcome, how long it took and how far heap + external memory rose above the start while it ran. */
async function measured(run: () => Promise<FetchOutcome>): Promise<{ outcome: FetchOutcome; ms: number; grewBytes: number }> {
  const baseline = used();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, used());
  }, 2);
  const started = Date.now();
  try {
    const outcome = await run();
    peak = Math.max(peak, used());
    return { outcome, ms: Date.now() - started, grewBytes: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

describe('OpenMeteoClient body bounds', () => {
  let fake: FakeOpenMeteo;
  const bombs = new Map<Encoding, Buffer>();
  const client = (overrides: Partial<ConstructorParameters<typeof OpenMeteoClient>[0]> = {}) =>
    new OpenMeteoClient({
      baseUrl: fake.baseUrl,
      timeoutMs: TIMEOUT_MS,
      retries: 2,
      backoffMs: 10,
      userAgent: 'mowability/test',
      sleep: async () => undefined,
      ...overrides,
    });

  beforeAll(() => {
    for (const encoding of ['gzip', 'deflate', 'br'] as const) bombs.set(encoding, compressionBomb(encoding, BOMB_BYTES));
  });
  beforeEach(async () => {
    fake = await FakeOpenMeteo.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  it.each(['gzip', 'deflate', 'br'] as const)('stops reading a %s bomb at the limit', async (encoding) => {
    const body = bombs.get(encoding)!;
    expect(body.length).toBeLessThan(MAX_RESPONSE_BYTES);
    fake.fallback = { kind: 'bomb', encoding, body };
    const { outcome, grewBytes } = await measured(() => client().fetchForecast(berlin));
    expect(grewBytes).toBeLessThan(MEMORY_BOUND_BYTES);
    expect(outcome).toEqual({ kind: 'error', reason: tooLarge });
    // The same server would send the same bomb again.
    expect(fake.requests).toHaveLength(1);
  });

  it.each<[string, Encoding | undefined, number]>([
    ['plain', undefined, 256 * 1024],
    ['gzip', 'gzip', MIB],
    ['br', 'br', MIB],
  ])('stops reading an endless chunked body (%s) at the limit, long before the timeout', async (_name, encoding, chunkBytes) => {
    fake.fallback = { kind: 'endless', chunkBytes, everyMs: 10, ...(encoding ? { encoding } : {}) };
    const { outcome, ms, grewBytes } = await measured(() => client({ retries: 0 }).fetchForecast(berlin));
    expect(grewBytes).toBeLessThan(MEMORY_BOUND_BYTES);
    expect(outcome).toEqual({ kind: 'error', reason: tooLarge });
    expect(ms).toBeLessThan(TIMEOUT_MS);
    expect(fake.requests).toHaveLength(1);
    // The client hung up: the server stops producing.
    await waitUntil(() => fake.endlessClosed === 1, 'the client to close the connection');
    expect(fake.endlessBytes[0]).toBeLessThan(64 * MIB);
  });

  it('refuses a declared Content-Length over the limit before reading, and reads a body at the limit', async () => {
    fake.fallback = { kind: 'fixture', name: 'dryDay' };
    const small = await client({ maxResponseBytes: 1000 }).fetchForecast(berlin);
    expect(small).toEqual({ kind: 'error', reason: 'the response is larger than 1000 bytes (after decoding); reading stopped there' });
    expect(await client().fetchForecast(berlin)).toMatchObject({ kind: 'ok' });
  });
});
