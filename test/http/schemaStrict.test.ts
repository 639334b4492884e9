/**
 * Every route schema compiles under Ajv's strict mode without a warning. Ajv reports a strict-mode
 * breach it tolerates (a union type written as `type: [...]`, an unknown keyword) with
 * console.warn when fastify compiles the route, so a daemon with registrations on printed
 * "strict mode: use allowUnionTypes …" at every start. The app is built with its optional areas
 * on (registrations, metrics) and readied, and no strict-mode line may appear.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from '../publicService/harness.js';

describe('route schemas', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await h?.close();
    h = undefined;
  });

  it('compile under Ajv strict mode without a warning (registrations and metrics on)', async () => {
    const lines: string[] = [];
    for (const method of ['warn', 'log', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    }
    h = await startHttpHarness({
      env: { MOWABILITY_REGISTRATION_ENABLED: 'true', MOWABILITY_HTTP_METRICS: 'open' },
      extend: publicServiceParts({ registrations: true }),
    });
    await h.app.ready();
    // Ajv compiles a body schema at the first request in some fastify versions: send one.
    await h.app.inject({
      method: 'POST',
      url: '/v1/registrations',
      payload: { name: 'A', email: 'a@example.org', intended_use: 'a lawn in my garden', usage: 'private', accept_terms: 'on' },
    });
    expect(lines.filter((line) => /strict mode/i.test(line))).toEqual([]);
  });
});
