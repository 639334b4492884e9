/**
 * How the shipped start path runs node: the environment and node flags of
 * package.json's `start` script, the one place they are written down (the
 * systemd unit and the Dockerfile repeat them; test/e2e/startFlags.test.ts
 * keeps them equal). The benchmarks start the daemon the same way, so their
 * memory figures are the shipped ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ShippedStart {
  /** Variables set before `node` (e.g. MALLOC_ARENA_MAX). */
  env: Record<string, string>;
  /** Flags between `node` and the script (e.g. --max-semi-space-size). */
  nodeArgs: string[];
  /** The script and its arguments. */
  script: string[];
}

export function parseStartScript(command: string): ShippedStart {
  const words = command.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let at = 0;
  for (; at < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[at]!); at++) {
    const word = words[at]!;
    env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
  }
  if (words[at] !== 'node') throw new Error(`the start script must run node, got: ${command}`);
  at++;
  const nodeArgs: string[] = [];
  for (; at < words.length && words[at]!.startsWith('-'); at++) nodeArgs.push(words[at]!);
  return { env, nodeArgs, script: words.slice(at) };
}

export function shippedStart(repoRoot: string): ShippedStart {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const start = pkg.scripts?.start;
  if (start === undefined) throw new Error('package.json has no start script');
  return parseStartScript(start);
}
