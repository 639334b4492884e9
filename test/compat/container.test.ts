/**
 * The Dockerfile's static facts, checked in seconds on every test run: every path it copies from
 * the build context exists and is not hidden by .dockerignore, and it runs as the unprivileged
 * user with a health check. Building and running it is scripts/container-test.sh's job
 * (npm run test:container, run by .ci/run with podman).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
const ignored = readFileSync(`${ROOT}.dockerignore`, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);

describe('Dockerfile', () => {
  it('copies only paths that exist in the build context', () => {
    const sources = dockerfile
      .split('\n')
      .filter((line) => /^COPY\s/.test(line) && !line.includes('--from='))
      .flatMap((line) => line.trim().split(/\s+/).slice(1, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(`${ROOT}${source}`), source).toBe(true);
      expect(
        ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
        source,
      ).toEqual([]);
    }
  });

  it('runs as the node user, with a health check on /health and the data volume', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    // `mowability health`: the daemon's /health on its configured port, failing when MQTT is down.
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n\s*CMD \["node", "dist\/cli\/main\.js", "health"\]$/m);
    expect(dockerfile).toMatch(/MOWABILITY_DB_PATH=\/data\//);
  });
});
