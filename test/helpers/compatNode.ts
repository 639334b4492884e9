/**
 * Other Node.js versions for the compatibility tests: the npm registry's `node-linux-<arch>` packages,
 * unpacked by scripts/fetch-node.sh (which .ci/run calls) into a cache outside the repository.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The majors users run besides Debian 13's Node 20: the README recommends them. */
export const COMPAT_NODE_MAJORS = [22, 24] as const;
/** A Node.js too old to run mowability (Raspberry Pi OS Bookworm's): the version check must answer it. */
export const OLD_NODE_MAJOR = 18;

/** Same default as scripts/fetch-node.sh. */
export function nodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.MOWABILITY_NODE_CACHE ?? join(homedir(), '.cache', 'mowability-node');
}

/** Path of the `node` binary of that major, whether or not it is there. */
export function compatNodeBinary(major: number, env: NodeJS.ProcessEnv = process.env): string {
  return join(nodeCacheDir(env), `node-${major}`, 'package', 'bin', 'node');
}

export function compatNodePresent(major: number): boolean {
  return existsSync(compatNodeBinary(major));
}
