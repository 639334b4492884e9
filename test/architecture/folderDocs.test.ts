/**
 * Every top-level folder of src/ is on docs/architecture.md's module map and in README's layout
 * paragraph (section "Development"), and both name no folder that is gone: a new folder (or a
 * renamed one) fails here until the map says what it holds. And no file only forwards another
 * folder's modules (a re-export file would hide which folder a module really depends on). The
 * counts and the station side's file list on docs/architecture.md are generated
 * (scripts/gen-architecture-docs.mjs, `npm run docs:architecture`) and checked to be the script's output.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script without types (npm run docs:architecture runs it).
import { generatedPart, withGeneratedPart } from '../../scripts/gen-architecture-docs.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = readdirSync(`${ROOT}src`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The folders a text names as `src/NAME` (with or without a trailing slash). */
function foldersNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/`src\/([A-Za-z]+)\/?`/g)].map((match) => match[1] ?? ''))].sort();
}

/** Whether a module's code is nothing but re-exports, at least one of them from another folder. */
function onlyForwards(source: string): boolean {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
  return (
    code.length > 0 &&
    code.every((statement) => /^export (type )?(\*|\{[^}]*\})( as \w+)? from '/.test(statement)) &&
    code.some((statement) => statement.includes("from '../"))
  );
}

describe('the folder maps', () => {
  it("docs/architecture.md's module map has one row per src/ folder", () => {
    const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
    const map = doc.slice(doc.indexOf('## Module map'), doc.indexOf('## Dependency direction'));
    const rows = [...map.matchAll(/^\| `src\/([A-Za-z]+)\/` \|/gm)].map((match) => match[1] ?? '').sort();
    expect(rows).toEqual(FOLDERS);
  });

  it("docs/architecture.md's generated part (file and folder counts, src/station/'s files) is what the tree says", () => {
    const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
    const expected = withGeneratedPart(doc, generatedPart(ROOT));
    // One command rewrites the part, so a merge that adds files never fights over typed counts.
    expect(doc, 'docs/architecture.md is out of date: run "npm run docs:architecture" and commit the result').toBe(expected);
    const files = readdirSync(`${ROOT}src`, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
    expect(generatedPart(ROOT)).toContain(`${files.length} files in ${FOLDERS.length} top-level folders`);
    for (const name of readdirSync(`${ROOT}src/station`).filter((file) => file.endsWith('.ts')))
      expect(generatedPart(ROOT)).toContain(`| \`${name}\` |`);
  });

  it('the generator refuses a page without its markers and replaces only the part between them', () => {
    expect(() => withGeneratedPart('# Architecture\n', 'x')).toThrow(/lacks the markers/);
    const page = `before\n${generatedPart(ROOT)}\nafter\n`;
    expect(withGeneratedPart(page.replace(/\d+ files in/, '1 files in'), generatedPart(ROOT))).toBe(page);
  });

  it("README's layout paragraph names every src/ folder and no other", () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const layout = readme.slice(readme.indexOf('Layout (docs/architecture.md'), readme.indexOf('## License'));
    expect(foldersNamed(layout)).toEqual(FOLDERS);
  });

  it('the check sees a missing folder', () => {
    expect(foldersNamed('`src/core` (pure), `src/http/` (fastify)')).toEqual(['core', 'http']);
    expect(FOLDERS).toContain('openmeteo');
  });

  it("no file in src/ only forwards another folder's modules", () => {
    const files = readdirSync(`${ROOT}src`, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(150);
    expect(files.filter((path) => onlyForwards(readFileSync(`${ROOT}src/${path}`, 'utf8')))).toEqual([]);
  });

  it("the forwarding check tells a forwarding file from a module and from a folder's own surface", () => {
    expect(
      onlyForwards(
        "/** Users. */\nexport { brokerUsers } from '../config/mqttValues.js';\nexport type { User } from '../config/types.js';\n",
      ),
    ).toBe(true);
    expect(onlyForwards("export * from './types.js';\nexport { calculate } from './calculate.js';\n")).toBe(false);
    expect(onlyForwards("export { a } from '../x/a.js';\nexport const b = 1;\n")).toBe(false);
  });
});
