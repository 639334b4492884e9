/**
 * `mowability config`: a home install's view leaves the public service's settings out (with one
 * line on stderr saying how to see them), --public shows only those, --all everything.
 */
import { describe, expect, it } from 'vitest';
import { useCliTempDir } from '../../helpers/httpCli.js';

describe('mowability config', () => {
  const { cli } = useCliTempDir(() => ({ MOWABILITY_KEYS_DAILY_QUOTA: '7', MOWABILITY_HTTP_PORT: '9124' }));

  it('shows the home settings and says how to see the public-service ones', async () => {
    const result = await cli('config');
    expect(result.code).toBe(0);
    const config = JSON.parse(result.stdout);
    expect(config.http.port).toBe(9124);
    expect(config.stations).toBeDefined();
    expect([
      config.keys,
      config.registration,
      config.store,
      config.http.rateLimit,
      config.http.rateLimitStore,
      config.http.trustProxy,
    ]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(result.stderr).toMatch(
      /^\d+ public-service settings .* are left out: see them with "mowability config --public", everything with --all\.\n$/,
    );
  });

  it('--public shows only the public-service settings, as set', async () => {
    const result = await cli('config', '--public');
    expect(result.code).toBe(0);
    const config = JSON.parse(result.stdout);
    expect(config.keys.dailyQuota).toBe(7);
    expect(Object.keys(config).sort()).toEqual(['http', 'keys', 'registration', 'store']);
    expect(Object.keys(config.http).every((key) => key.startsWith('rateLimit') || key === 'trustProxy')).toBe(true);
    expect(result.stderr).toBe('');
  });

  it('--all shows both, the same values', async () => {
    const all = JSON.parse((await cli('config', '--all')).stdout);
    const home = JSON.parse((await cli('config')).stdout);
    const pub = JSON.parse((await cli('config', '--public')).stdout);
    expect(all.keys).toEqual(pub.keys);
    expect(all.stations).toEqual(home.stations);
    expect({ ...home.http, ...pub.http }).toEqual(all.http);
    expect((await cli('config', '--public', '--all')).code).toBe(2);
  });
});
