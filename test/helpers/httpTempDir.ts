/** Temp directories and databases for the service tests (HTTP, store, CLI, e2e). */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { waitUntil } from './wait.js';

export function makeTempDir(prefix = 'mow-'): { dir: string; dbPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, dbPath: join(dir, 'mowability.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh temp dir for each test of the calling describe, removed after it; read `dir`/`dbPath` inside a test. */
export function useTempDir(prefix = 'mow-'): { readonly dir: string; readonly dbPath: string } {
  let temp: ReturnType<typeof makeTempDir> | undefined;
  beforeEach(() => {
    temp = makeTempDir(prefix);
  });
  afterEach(() => temp?.cleanup());
  const current = (): ReturnType<typeof makeTempDir> => {
    if (!temp) throw new Error('useTempDir: the temp dir exists only inside a test');
    return temp;
  };
  return {
    get dir() {
      return current().dir;
    },
    get dbPath() {
      return current().dbPath;
    },
  };
}

/** Bytes of a database file and its WAL together (0 for a file that does not exist). */
export function databaseBytes(path: string): number {
  const size = (file: string): number => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return size(path) + size(`${path}-wal`);
}

/** waitUntil (test/helpers/wait.ts) without a description, for the service tests. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, stepMs = 25): Promise<void> {
  await waitUntil(check, 'a condition', timeoutMs, stepMs);
}
