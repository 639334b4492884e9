/**
 * Configuration files for the config tests: a temp dir per test with its `config.json`, and the
 * problems of the refusal a bad configuration must end in (a ConfigError, exit code 78).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ConfigError } from '../../src/config/load.js';
import { makeTempDir } from './httpTempDir.js';

export interface TempConfigFile {
  /** This test's temp dir. */
  readonly dir: string;
  /** `config.json` in it (written by write()). */
  readonly path: string;
  /** Writes the file, an object as JSON and a string as it is, and returns its path. */
  write(content: unknown): string;
}

export function useConfigFile(): TempConfigFile {
  let temp: ReturnType<typeof makeTempDir> | undefined;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => {
    temp?.cleanup();
    temp = undefined;
  });
  const dir = (): string => {
    if (!temp) throw new Error('useConfigFile: only inside a test');
    return temp.dir;
  };
  const path = (): string => join(dir(), 'config.json');
  return {
    get dir() {
      return dir();
    },
    get path() {
      return path();
    },
    write(content) {
      writeFileSync(path(), typeof content === 'string' ? content : JSON.stringify(content));
      return path();
    },
  };
}

/** The ConfigError that `run` throws, which must exit 78; a test fails if `run` returns. */
export function configRefusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(78);
    return err as ConfigError;
  }
  throw new Error('expected the configuration to be refused (a ConfigError)');
}

/** The problems of configRefusal(run). */
export function configProblems(run: () => unknown): string[] {
  return [...configRefusal(run).problems];
}
