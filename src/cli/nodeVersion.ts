/**
 * The Node.js version check that runs before anything else (src/cli/main.ts). It imports nothing,
 * so it loads on any Node.js that runs ES modules; the daemon's own modules need Node.js 20.19 or
 * newer (node:crypto's hash(), require() of ES modules by dependencies) and would crash with an
 * error that names neither the version nor the fix.
 */

/** The lowest Node.js version that runs mowability; package.json's `engines.node` says the same (a test checks). */
export const MIN_NODE_VERSION = '20.19.0';

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** True when `version` ("18.19.0" or "v18.19.0") is at least `minimum`. */
export function isAtLeast(version: string, minimum: string): boolean {
  const have = parts(version);
  const need = parts(minimum);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** Undefined when `version` runs mowability; otherwise what to tell the user, with how to get a newer Node.js on a Raspberry Pi. */
export function nodeVersionProblem(version: string, executable: string): string | undefined {
  if (isAtLeast(version, MIN_NODE_VERSION)) return undefined;
  return [
    `mowability needs Node.js ${MIN_NODE_VERSION} or newer (22 or 24 recommended); ${executable} is Node.js ${version.replace(/^v/, '')}.`,
    'Raspberry Pi OS Bookworm (Debian 12) ships Node.js 18 as "nodejs". Install Node.js 22 from NodeSource:',
    '  curl -fsSL https://deb.nodesource.com/setup_22.x | sudo -E bash -',
    '  sudo apt-get install -y nodejs',
    'or the official binaries (https://nodejs.org/en/download). Debian 13 (Trixie) ships Node.js 20.19, which works.',
    'See README.md, "Install on a Raspberry Pi".',
  ].join('\n');
}
