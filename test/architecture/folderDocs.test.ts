/**
 * Every top-level folder of src/ is on docs/architecture.md's module map and in README's layout
 * paragraph (section "Development"), and both name no folder that is gone: a new folder (or a
 * renamed one) fails here until the map says what it holds. And no file only forwards another
 * folder's modules (a re-export file would hide which folder a module really depends on). The
 * counts and the station side's file list on docs/architecture.md are checked against the tree too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

  it("docs/architecture.md's file and folder counts are the tree's", () => {
    const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
    const files = readdirSync(`${ROOT}src`, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
    const counted = /(\d+) files in (\d+) top-level folders/.exec(doc);
    expect(counted, 'the sentence "N files in M top-level folders"').not.toBeNull();
    expect({ files: Number(counted![1]), folders: Number(counted![2]) }).toEqual({ files: files.length, folders: FOLDERS.length });
  });

  it('docs/architecture.md names every file of src/station/ and no gone one', () => {
    const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
    const paragraph = doc.slice(doc.indexOf('`src/station/` holds the whole pipeline'), doc.indexOf('**File size.**'));
    const named = [...new Set([...paragraph.matchAll(/`([a-zA-Z]+\.ts)`/g)].map((match) => match[1] ?? ''))].sort();
    const files = readdirSync(`${ROOT}src/station`)
      .filter((name) => name.endsWith('.ts'))
      .sort();
    expect(named).toEqual(files);
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
