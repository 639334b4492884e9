/**
 * The Node.js version check in front of the CLI (src/cli/main.ts): an old Node.js (Raspberry Pi OS
 * Bookworm's 18) must get the needed version and how to install it, not a crash on an import.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_VERSION, isAtLeast, nodeVersionProblem } from '../../src/cli/nodeVersion.js';
import { EXIT_CONFIG } from '../../src/util/exitCodes.js';
import { compatNodeBinary, compatNodePresent, OLD_NODE_MAJOR } from '../helpers/compatNode.js';
import { assertBuilt, BUILT_CLI } from '../helpers/httpCli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Preloaded into the built CLI: process.versions.node reads as an old version, as on Raspberry Pi OS Bookworm. */
const fakeNodeVersion = (version: string) =>
  `--import=data:text/javascript,${encodeURIComponent(`Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });`)}`;

function staticImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s+'([^']+)'/gm)].map((match) => match[1] as string);
}

describe('Node.js version check', () => {
  it.each([
    ['20.19.0', '20.19.0', true],
    ['v22.1.0', '20.19.0', true],
    ['20.18.3', '20.19.0', false],
    ['18.20.8', '20.19.0', false],
    ['20.19', '20.19.0', true],
  ])('%s at least %s: %s', (version, minimum, expected) => {
    expect(isAtLeast(version, minimum)).toBe(expected);
  });

  it('names the needed version, the one found and how to get Node.js 22 on a Pi', () => {
    expect(nodeVersionProblem('22.12.0', '/usr/bin/node')).toBeUndefined();
    const problem = nodeVersionProblem('v18.19.0', '/usr/bin/node');
    expect(problem).toContain(`needs Node.js ${MIN_NODE_VERSION} or newer`);
    expect(problem).toContain('/usr/bin/node is Node.js 18.19.0');
    expect(problem).toContain('https://deb.nodesource.com/setup_22.x');
  });

  it("matches package.json's engines", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(`>=${MIN_NODE_VERSION}`);
  });

  it('the entry file loads nothing but the check (and a constant) before the check has passed', () => {
    assertBuilt();
    const entryImports = staticImports(BUILT_CLI);
    expect(entryImports.sort()).toEqual(['../util/exitCodes.js', './nodeVersion.js']);
    for (const imported of entryImports) expect(staticImports(join(BUILT_CLI, '..', imported))).toEqual([]);
  });

  it.each([['--version'], ['serve'], ['keys', 'add', 'alice']])(
    'the built CLI on a faked Node.js 18 (%s): the message and exit 78, nothing else runs',
    (...args) => {
      assertBuilt();
      const result = spawnSync(process.execPath, [fakeNodeVersion('18.19.0'), BUILT_CLI, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', MOWABILITY_DB_PATH: '/nonexistent/never-created.db' },
      });
      expect(result.status).toBe(EXIT_CONFIG);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `mowability needs Node.js ${MIN_NODE_VERSION} or newer (22 or 24 recommended); ${process.execPath} is Node.js 18.19.0.`,
      );
      expect(result.stderr).toContain('sudo apt-get install -y nodejs');
    },
  );

  it('the built CLI on this Node.js passes the check', () => {
    const result = spawnSync(process.execPath, [fakeNodeVersion(MIN_NODE_VERSION), BUILT_CLI, '--version'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  // The real thing where the compatibility cache has it (.ci/run fetches it with scripts/fetch-node.sh).
  it.skipIf(!compatNodePresent(OLD_NODE_MAJOR) && !process.env.CI)(`the built CLI on a real Node.js ${OLD_NODE_MAJOR}`, () => {
    const result = spawnSync(compatNodeBinary(OLD_NODE_MAJOR), [BUILT_CLI, 'serve'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', MOWABILITY_DB_PATH: '/nonexistent/never-created.db' },
    });
    expect(result.status, result.stderr).toBe(EXIT_CONFIG);
    expect(result.stderr).toMatch(
      new RegExp(`needs Node\\.js ${MIN_NODE_VERSION.replaceAll('.', '\\.')} or newer .* is Node\\.js ${OLD_NODE_MAJOR}\\.`),
    );
  });
});
