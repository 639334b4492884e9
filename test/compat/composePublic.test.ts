/**
 * docs/deployment.md's two-instance setup, checked in well under a second on every test run:
 * docker/compose.public.yaml parses and has the services the guide names, each instance's
 * environment (with store.url from the secret, as $CREDENTIALS_DIRECTORY) is a configuration the
 * daemon accepts with the settings the guide describes, only Caddy publishes a port (the
 * instances' trustProxy relies on it), docker/Caddyfile proxies to both instances as the guide's
 * Caddy snippet does, and every MOWABILITY_* variable the guide sets exists. Bringing the setup
 * up is a manual walk-through (docs/deployment.md, "In containers").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CREDENTIAL_SETTINGS } from '../../src/config/credentials.js';
import { loadConfig } from '../../src/config/load.js';
import { listSettings } from '../../src/config/schema.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const guide = read('docs/deployment.md');

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  secrets?: Array<string | { source: string; target?: string }>;
  ports?: string[];
  volumes?: string[];
  depends_on?: string[];
}
interface Compose {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
}

const compose = parse(read('docker/compose.public.yaml'), { merge: true }) as Compose;
const INSTANCES = ['mowability-a', 'mowability-b'];

/** The fenced blocks of the guide in one language. */
const blocks = (language: string): string[] =>
  [...guide.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

/** reverse_proxy's upstreams and subdirectives of a Caddyfile. */
function reverseProxy(caddyfile: string): { upstreams: string[]; directives: string[] } {
  const lines = caddyfile
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
  const start = lines.findIndex((line) => line.startsWith('reverse_proxy '));
  const end = lines.findIndex((line, i) => i > start && line === '}');
  return {
    upstreams: lines[start]!.replace(/^reverse_proxy\s+|\s*\{$/g, '').split(/\s+/),
    directives: lines.slice(start + 1, end).map((line) => line.split(/\s+/)[0]!),
  };
}

describe('the two-instance compose file (docs/deployment.md)', () => {
  const credentials = mkdtempSync(join(tmpdir(), 'mow-compose-'));
  afterAll(() => rmSync(credentials, { recursive: true, force: true }));

  it('has PostgreSQL, Redis, two instances built from this repository and Caddy, as the guide says', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'mowability-a', 'mowability-b', 'postgres', 'redis']);
    expect(compose.services.postgres?.image).toBe('postgres:16');
    expect(compose.services.redis?.image).toBe('redis:7');
    expect(compose.services.caddy?.image).toBe('caddy:2');
    for (const name of INSTANCES) {
      expect(compose.services[name]?.build, name).toEqual({ context: '..' });
      expect(compose.services[name]?.depends_on, name).toEqual(['postgres', 'redis']);
    }
    expect(guide).toContain('docker compose -f docker/compose.public.yaml up -d --build');
  });

  it('gives each instance a configuration the daemon accepts: PostgreSQL from the secret, Redis, trustProxy, registration', () => {
    for (const name of INSTANCES) {
      const service = compose.services[name]!;
      const env = { ...service.environment! };
      expect(env.CREDENTIALS_DIRECTORY).toBe('/run/secrets');
      // The secret, mounted as $CREDENTIALS_DIRECTORY/<target>, is a credential the daemon reads.
      const secret = service.secrets?.find((s) => typeof s === 'object' && s.source === 'store_url') as { target: string } | undefined;
      expect(secret?.target).toBe('store.url');
      expect(CREDENTIAL_SETTINGS).toContain(secret!.target);
      writeFileSync(join(credentials, secret!.target), 'postgres://mowability:PASSWORD@postgres:5432/mowability\n');
      const config = loadConfig({
        env: { ...env, CREDENTIALS_DIRECTORY: credentials, MOWABILITY_DB_PATH: join(credentials, 'mowability.db') },
      });
      expect(config.store.kind).toBe('postgres');
      expect(config.store.url).toBe('postgres://mowability:PASSWORD@postgres:5432/mowability');
      expect(config.http.rateLimitStore).toBe('redis://redis:6379');
      expect(config.http.trustProxy).toEqual(['uniquelocal']);
      expect(config.http.host).toBe('0.0.0.0');
      expect(config.registration.enabled).toBe(true);
      expect(config.broker.enabled).toBe(false);
      expect(service.ports, `${name} publishes no port: only Caddy reaches it, so it may trust the private ranges`).toBeUndefined();
    }
  });

  it('keeps the secrets in files the guide creates, out of git and out of the build context', () => {
    expect(compose.secrets).toEqual({
      postgres_password: { file: './secrets/postgres_password' },
      store_url: { file: './secrets/store.url' },
    });
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
    expect(guide).toContain('> docker/secrets/postgres_password');
    expect(guide).toContain('> docker/secrets/store.url');
    expect(read('docker/.gitignore').split('\n')).toContain('secrets/');
    expect(read('.dockerignore').split('\n')).toContain('docker/secrets');
  });

  it('has Caddy publish the service and proxy to both instances as the guide does, without retries', () => {
    expect(compose.services.caddy?.ports).toEqual(['80:80']);
    expect(compose.services.caddy?.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
    const shipped = reverseProxy(read('docker/Caddyfile'));
    const port = String(loadConfig({ env: {} }).http.port);
    expect(shipped.upstreams).toEqual(INSTANCES.map((name) => `${name}:${port}`));
    const documented = blocks('caddy');
    expect(documented).toHaveLength(1);
    expect(reverseProxy(documented[0]!).directives).toEqual(shipped.directives);
    // A retry of a POST on the other instance takes both out with Caddy up to 2.11.1 (docs/deployment.md, step 3).
    expect(shipped.directives).not.toContain('lb_try_duration');
  });

  it('sets only MOWABILITY_* variables that are settings, in the guide and in the compose file', () => {
    const known = new Set(listSettings().flatMap(({ spec }) => (spec.env ? [spec.env] : [])));
    const inGuide = [...blocks('ini'), ...blocks('sh')].flatMap((block) =>
      [...block.matchAll(/\b(MOWABILITY_[A-Z_]+)=/g)].map((m) => m[1]!),
    );
    const inCompose = INSTANCES.flatMap((name) =>
      Object.keys(compose.services[name]!.environment!).filter((key) => key.startsWith('MOWABILITY_')),
    );
    expect(inGuide).toEqual(
      expect.arrayContaining(['MOWABILITY_STORE_KIND', 'MOWABILITY_STORE_URL', 'MOWABILITY_RATE_LIMIT_STORE', 'MOWABILITY_TRUST_PROXY']),
    );
    expect([...new Set([...inGuide, ...inCompose])].filter((name) => !known.has(name))).toEqual([]);
  });
});
