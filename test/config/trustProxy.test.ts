import { describe, expect, it } from 'vitest';
import { ConfigError, EXIT_CONFIG, loadConfig } from '../../src/config/load.js';
import { coerceTrustProxy, parseTrustProxy } from '../../src/config/trustProxy.js';

function problemsOf(load: () => unknown): readonly string[] {
  try {
    load();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(EXIT_CONFIG);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('http.trustProxy setting', () => {
  it('defaults to false: no proxy is trusted', () => {
    expect(loadConfig({ env: {} }).http.trustProxy).toBe(false);
  });

  it('reads false, a hop count and a comma-separated list from the environment', () => {
    const of = (value: string) => loadConfig({ env: { MOWABILITY_TRUST_PROXY: value } }).http.trustProxy;
    expect(of('false')).toBe(false);
    expect(of('off')).toBe(false);
    expect(of('0')).toBe(false);
    expect(of('2')).toBe(2);
    expect(of(' 10.0.0.1 , 192.168.0.0/16, ::1,loopback ')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'loopback']);
  });

  it('reads a list and a hop count from the config file and the flag', () => {
    expect(loadConfig({ argv: ['--http-trust-proxy', '127.0.0.1,::1'], env: {} }).http.trustProxy).toEqual(['127.0.0.1', '::1']);
    expect(loadConfig({ argv: ['--http-trust-proxy', '1'], env: {} }).http.trustProxy).toBe(1);
  });

  it.each(['true', 'yes', 'on', 'TRUE'])('refuses %s ("trust everything") with exit 78, naming the setting and what to write', (value) => {
    const problems = problemsOf(() => loadConfig({ env: { MOWABILITY_TRUST_PROXY: value } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^"http\.trustProxy" = true is invalid: true would trust every address/);
    expect(problems[0]).toContain('the number of reverse proxies in front of the service (1 for one nginx or Caddy)');
    expect(problems[0]).toContain('["127.0.0.1", "::1"]');
    expect(problems[0]).toContain('MOWABILITY_TRUST_PROXY');
  });

  it('names each entry that is not an address, range or range name', () => {
    const problems = problemsOf(() => loadConfig({ env: { MOWABILITY_TRUST_PROXY: '127.0.0.1,nginx.local,10.0.0.0/33,1.2.3' } }));
    expect(problems[0]).toContain(
      '"nginx.local", "10.0.0.0/33", "1.2.3" is not an IP address, CIDR range or one of loopback, linklocal, uniquelocal',
    );
  });

  it('refuses hop counts that are not small whole numbers', () => {
    expect(() => parseTrustProxy(17)).toThrow(/hop count must be a whole number from 0 to 16/);
    expect(() => parseTrustProxy(1.5)).toThrow(/hop count/);
    expect(() => parseTrustProxy(-1)).toThrow(/hop count/);
    expect(() => parseTrustProxy({ proxies: 1 })).toThrow(/must be false, a number or a list/);
    expect(() => parseTrustProxy([1])).toThrow(/must be false, a number or a list/);
  });

  it('parses the accepted forms', () => {
    expect(parseTrustProxy(false)).toEqual({ kind: 'none' });
    expect(parseTrustProxy(0)).toEqual({ kind: 'none' });
    expect(parseTrustProxy([])).toEqual({ kind: 'none' });
    expect(parseTrustProxy(3)).toEqual({ kind: 'hops', hops: 3 });
    expect(parseTrustProxy('uniquelocal, fd00::/8')).toEqual({ kind: 'list', entries: ['uniquelocal', 'fd00::/8'] });
    expect(coerceTrustProxy(true)).toBe(true);
    expect(coerceTrustProxy('yes')).toBe(true);
  });
});
