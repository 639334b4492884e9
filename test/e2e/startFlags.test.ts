/**
 * The memory settings of the shipped start path (bench/NOTES.md, "Memory") are written
 * three times: package.json's start script, the systemd unit and the Dockerfile. They must agree.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseStartScript, shippedStart } from '../../bench/lib/shippedStart.js';
import { UNIT_FILE } from '../helpers/sandbox.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const shipped = shippedStart(repoRoot);
const unit = readFileSync(UNIT_FILE, 'utf8').split('\n');
const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');

describe('the memory settings of the start path', () => {
  it('npm start caps the young generation and the malloc arenas, and collects garbage on the main thread', () => {
    expect(shipped.nodeArgs).toContain('--max-semi-space-size=2');
    expect(shipped.nodeArgs).toContain('--single-threaded-gc');
    expect(shipped.env.MALLOC_ARENA_MAX).toBe('2');
    expect(shipped.script).toEqual(['dist/cli/main.js', 'serve']);
  });

  it('the systemd unit starts node with the same flags and environment', () => {
    const execStart = unit.filter((line) => line.startsWith('ExecStart='));
    expect(execStart).toHaveLength(1);
    const parsed = parseStartScript(execStart[0]!.slice('ExecStart='.length).replace(/^\/usr\/bin\/node /, 'node '));
    expect(parsed.nodeArgs).toEqual(shipped.nodeArgs);
    expect(parsed.script).toEqual(['/opt/mowability/dist/cli/main.js', 'serve']);
    for (const [name, value] of Object.entries(shipped.env)) expect(unit).toContain(`Environment=${name}=${value}`);
  });

  it('the Docker image starts node with the same flags and environment', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(['node', ...shipped.nodeArgs, ...shipped.script]);
    for (const [name, value] of Object.entries(shipped.env)) expect(dockerfile).toMatch(new RegExp(`^\\s*(ENV )?${name}=${value}\\b`, 'm'));
  });

  it('reads environment, node flags and script from a start command', () => {
    expect(parseStartScript('A=1 B_C=x node --x=1 --y dist/main.js serve')).toEqual({
      env: { A: '1', B_C: 'x' },
      nodeArgs: ['--x=1', '--y'],
      script: ['dist/main.js', 'serve'],
    });
    expect(() => parseStartScript('tsx src/main.ts')).toThrow(/must run node/);
  });
});
