/**
 * A home install configures neither PostgreSQL (store.kind postgres) nor Redis (http.rateLimitStore), so the
 * built daemon must not load their drivers: pg and ioredis cost about 12 MB of RSS and 0.12 CPU-s at start-up
 * (bench/NOTES.md, "Memory (RSS) of the daemon", "Drivers nobody configured"). A preload lists every CommonJS
 * module the process loaded (the drivers are CommonJS; Node's ESM loader keeps them in Module._cache too).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonProcess } from '../helpers/httpDaemon.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const PRELOAD = `
const { writeFileSync } = require('node:fs');
const Module = require('node:module');
process.on('exit', () => writeFileSync(process.env.LOADED_MODULES_OUT, JSON.stringify(Object.keys(Module._cache))));
`;

/** The packages under node_modules that the loaded files belong to (scoped ones as @scope/name). */
function packagesOf(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (match) names.add(match[1] as string);
  }
  return names;
}

describe('the built daemon of a home install', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  const fixture = useDaemonProcess();

  it('loads neither pg nor ioredis (and the preload sees the CommonJS packages it does load)', async () => {
    const preload = join(fixture.temp.dir, 'loaded.cjs');
    const out = join(fixture.temp.dir, 'loaded.json');
    writeFileSync(preload, PRELOAD);
    const daemon = await fixture.start({ LOADED_MODULES_OUT: out }, [], { nodeArgs: ['--require', preload] });
    expect(await daemon.stop('SIGTERM')).toBe(0);
    const packages = packagesOf(JSON.parse(readFileSync(out, 'utf8')) as string[]);
    // The listing works: fastify (CommonJS, imported from ESM like the drivers) is there.
    expect(packages.has('fastify')).toBe(true);
    expect(packages.has('pg')).toBe(false);
    expect(packages.has('ioredis')).toBe(false);
  });
});
