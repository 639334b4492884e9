/**
 * Every file path the prose names exists: the docs and README (`src/station/unit.ts`,
 * `test/units/snowCover.test.ts`) and the comments of src/, test/, bench/ and scripts/ (also
 * `./recompute.ts`, read from the comment's own folder). A file moved or renamed fails here until
 * the texts that point at it follow, instead of leaving a comment that names a gone part.
 * Not checked: bench/NOTES.md (a dated lab notebook: it names files as they were that day),
 * CHANGELOG.md (history) and docs/performance.md (its rows are kept by the release's notes).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Paths that are not this project's files: another project's (landroid-bridge, quoted by docs/mower.md), a run's output. */
const NOT_OURS = ['src/LandroidS.ts', 'src/LandroidDataset.ts', 'bench/results/'];
const UNCHECKED = new Set(['bench/NOTES.md', 'CHANGELOG.md']);

/** The repository's folders (not config/: the docs also write `config/mqttValues.ts` for src/config/). */
const TOP = '(?:src|test|docs|bench|scripts|public|systemd|docker|blueprints|homeassistant-addon)';
const FILE_END = '\\.(?:ts|mjs|cjs|js|md|json|yaml|yml|sql|html|css)';
/** `src/a/b.ts` (not inside a longer path or a URL); in comments also `./b.ts`, `../a/b.ts`. */
const ROOTED = new RegExp(`(?<![\\w./-])(${TOP}/[\\w./-]*?${FILE_END})(?![\\w/-])`, 'g');
const RELATIVE = new RegExp(`(?<![\\w./-])(\\.\\.?/[\\w./-]*?${FILE_END})(?![\\w/-])`, 'g');

function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'fixtures') found.push(...filesUnder(path, keep));
    } else if (keep(path)) found.push(path);
  }
  return found;
}

/** The comments of a source file, each with its line number. */
function commentLines(source: string): Array<[line: number, text: string]> {
  const lines: Array<[number, string]> = [];
  for (const match of source.matchAll(/\/\*[\s\S]*?\*\/|\/\/.*$/gm)) {
    const first = source.slice(0, match.index).split('\n').length;
    match[0].split('\n').forEach((text, offset) => lines.push([first + offset, text]));
  }
  return lines;
}

function exists(path: string): boolean {
  const full = join(ROOT, path);
  return existsSync(full) || (path.endsWith('.js') && existsSync(full.replace(/\.js$/, '.ts')));
}

/** `file:line: path` for each named path that is not there. */
function missingPaths(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const isCode = !file.endsWith('.md');
  const lines: Array<[number, string]> = isCode ? commentLines(text) : text.split('\n').map((line, index) => [index + 1, line]);
  const missing: string[] = [];
  for (const [line, content] of lines) {
    const named = [...content.matchAll(ROOTED)].map((match) => match[1]!);
    const relativeNamed = isCode
      ? [...content.matchAll(RELATIVE)].map((match) => relative(ROOT, join(ROOT, dirname(file), match[1]!)))
      : [];
    for (const path of [...named, ...relativeNamed]) {
      if (NOT_OURS.some((other) => path.startsWith(other)) || exists(path)) continue;
      missing.push(`${file}:${line}: ${path}`);
    }
  }
  return missing;
}

describe('paths named in docs and comments', () => {
  const docs = ['README.md', ...filesUnder('docs', (path) => path.endsWith('.md'))].filter((path) => !UNCHECKED.has(path));
  // This file's own comments and examples name paths that are not there on purpose.
  const code = ['src', 'test', 'bench', 'scripts']
    .flatMap((folder) => filesUnder(folder, (path) => /\.(?:ts|mjs|cjs)$/.test(path)))
    .filter((path) => path !== 'test/architecture/namedPaths.test.ts');

  it('reads the texts it checks', () => {
    expect(docs).toContain('docs/architecture.md');
    expect(code).toContain('src/station/unit.ts');
    expect(missingPaths('src/station/unit.ts')).toEqual([]);
  });

  it('every file the docs and README name exists', () => {
    expect(docs.flatMap(missingPaths)).toEqual([]);
  });

  it("every file a comment names exists (rooted, or from the comment's folder)", () => {
    expect(code.flatMap(missingPaths)).toEqual([]);
  });

  it('sees a gone file, rooted and relative, in a comment and in prose', () => {
    expect(commentLines('const a = 1; // see ./gone.ts\n/**\n * and src/station/side.ts\n */')).toEqual([
      [1, '// see ./gone.ts'],
      [2, '/**'],
      [3, ' * and src/station/side.ts'],
      [4, ' */'],
    ]);
    expect([...'(`src/station/gone.ts`, https://example.org/src/x.ts, foo/src/y.ts)'.matchAll(ROOTED)].map((match) => match[1])).toEqual([
      'src/station/gone.ts',
    ]);
    expect([...'(./gone.ts, ../core/turf.ts)'.matchAll(RELATIVE)].map((match) => match[1])).toEqual(['./gone.ts', '../core/turf.ts']);
  });
});
