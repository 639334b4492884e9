/**
 * The status page's texts (public/assets/i18n.js): English and German hold the same keys, and each
 * text has the same {placeholders} in both, so a text added in one language only (which the page
 * would show in English on the German page, or as its bare key) fails here, without a browser.
 * Every key the page names literally (data-i18n in index.html, t('…') in the scripts) is in them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

type Tables = Record<string, Record<string, string>>;

const PUBLIC = join(process.cwd(), 'public');

/** Runs i18n.js as the browser does (a window, a navigator) and returns its tables. */
function loadTables(): Tables {
  const window: { MowI18n?: { texts: Tables } } = {};
  runInNewContext(readFileSync(join(PUBLIC, 'assets', 'i18n.js'), 'utf8'), {
    window,
    navigator: { languages: ['de-DE'], language: 'de-DE' },
  });
  return window.MowI18n!.texts;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

/** Where `tables`' languages differ from the first one: a key only one language has, or other placeholders. */
function differences(tables: Tables): string[] {
  const [first, ...others] = Object.keys(tables);
  const base = tables[first!]!;
  const found: string[] = [];
  for (const lang of others) {
    const table = tables[lang]!;
    for (const key of Object.keys(base)) if (!(key in table)) found.push(`${lang} misses "${key}"`);
    for (const key of Object.keys(table)) if (!(key in base)) found.push(`${first} misses "${key}"`);
    for (const key of Object.keys(base)) {
      if (key in table && placeholders(base[key]!).join() !== placeholders(table[key]!).join()) {
        found.push(
          `"${key}": ${first} has {${placeholders(base[key]!).join('}, {')}}, ${lang} {${placeholders(table[key]!).join('}, {')}}`,
        );
      }
    }
  }
  return found;
}

describe("the status page's English and German texts", () => {
  const tables = loadTables();

  it('are the two languages, with the same keys and the same placeholders in each text', () => {
    expect(Object.keys(tables)).toEqual(['en', 'de']);
    expect(Object.keys(tables.en!).length).toBeGreaterThan(100);
    expect(differences(tables)).toEqual([]);
  });

  it('the check finds a key one language misses and a placeholder one text lost', () => {
    const { refused_rejected: _dropped, ...de } = tables.de!;
    expect(differences({ en: tables.en!, de })).toEqual(['de misses "refused_rejected"']);
    expect(differences({ en: { ...tables.en!, extra: 'x' }, de: tables.de! })).toEqual(['de misses "extra"']);
    expect(differences({ en: tables.en!, de: { ...tables.de!, ago: 'vor kurzem' } })).toEqual(['"ago": en has {age}, de {}']);
  });

  it('hold every key the page names literally', () => {
    const html = readFileSync(join(PUBLIC, 'index.html'), 'utf8');
    const scripts = ['app.js', 'charts.js', 'i18n.js'].map((file) => readFileSync(join(PUBLIC, 'assets', file), 'utf8')).join('\n');
    const named = [
      ...[...html.matchAll(/data-i18n(?:-label)?="(\w+)"/g)].map((match) => match[1]!),
      ...[...scripts.matchAll(/\bt\('(\w+)'/g)].map((match) => match[1]!),
    ];
    expect(named.length).toBeGreaterThan(40);
    expect([...new Set(named)].filter((key) => !(key in tables.en!))).toEqual([]);
  });
});
