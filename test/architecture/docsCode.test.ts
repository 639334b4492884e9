/**
 * Code the docs show is the code: docs/units.md's `stationUnits()` (section "Wiring") and its
 * worked example's module definition are src/daemon.ts's and src/units/snowCover.ts's, comments
 * aside. A module added to the list, or a wiring changed, fails here until the page shows it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The lines from the one starting with `head` to the first line that is only `end`, without comments and blank lines. */
function codeBlock(text: string, head: string, end: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(head));
  if (start < 0) throw new Error(`no line starting with ${head}`);
  const stop = lines.findIndex((line, index) => index > start && line === end);
  if (stop < 0) throw new Error(`no ${end} after ${head}`);
  return lines
    .slice(start, stop + 1)
    .map((line) => line.replace(/\s*\/\/.*$/, '').trimEnd())
    .filter((line) => line.trim() !== '');
}

describe("docs/units.md's code", () => {
  const units = read('docs/units.md');

  it('shows stationUnits() as src/daemon.ts has it (every module, in order, with its wiring)', () => {
    const head = 'export function stationUnits(';
    expect(codeBlock(units, head, '}')).toEqual(codeBlock(read('src/daemon.ts'), head, '}'));
  });

  it("shows the worked example's module as src/units/snowCover.ts defines it", () => {
    const head = 'export const snowCoverUnit = defineStationUnit<';
    expect(codeBlock(units, head, '});')).toEqual(codeBlock(read('src/units/snowCover.ts'), head, '});'));
  });

  it('compares without comments, and sees a missing line', () => {
    const page = ['x', 'f() {', '  a, // offers b', '', '}'].join('\n');
    expect(codeBlock(page, 'f() {', '}')).toEqual(['f() {', '  a,', '}']);
    expect(codeBlock(page, 'f() {', '}')).not.toEqual(codeBlock('f() {\n  a,\n  b,\n}', 'f() {', '}'));
  });
});
