/**
 * `npm ci` refuses a lockfile that lacks an entry for any dependency of a locked package, optional
 * platform packages included (rollup's @rollup/rollup-<os>-<cpu>: a lockfile written on one
 * machine, or against a registry that lacks some of them, holds only a few, and `npm ci` then fails
 * everywhere, on a Pi's armhf as on x64). CI also runs `npm ci` on a fresh clone; this check names
 * the missing entries without the network.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
};

/** Node's lookup: the package's own node_modules, then each enclosing one up to the root. */
function resolves(from: string, name: string): boolean {
  let base = from;
  for (;;) {
    if (lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    if (base === '') return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  it('is a lockfile v3 with an entry for every dependency, optional platform packages included', () => {
    expect(lock.lockfileVersion).toBe(3);
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        if (!resolves(path, name)) missing.push(`${name} (needed by ${path || 'the root'})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
