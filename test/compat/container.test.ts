/**
 * No container engine runs where this project is built and tested, so the Dockerfile is never
 * built here. This keeps it from rotting silently: every path it copies from the build context
 * exists and is not hidden by .dockerignore, and it runs as the unprivileged user with a health check.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
const ignored = readFileSync(`${ROOT}.dockerignore`, 'utf8').split('\n').map((line) => line.trim()).filter(Boolean);

describe('Dockerfile', () => {
  it('copies only paths that exist in the build context', () => {
    const sources = dockerfile
      .split('\n')
      .filter((line) => /^COPY\s/.test(line) && !line.includes('--from='))
      .flatMap((line) => line.trim().split(/\s+/).slice(1, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(`${ROOT}${source}`), source).toBe(true);
      expect(ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`)), source).toEqual([]);
    }
  });

  it('runs as the node user, with a health check on /health and the data volume', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/health/m);
    expect(dockerfile).toMatch(/MOWABILITY_DB_PATH=\/data\//);
  });
});
