/**
 * The ```yaml blocks of the Markdown files users copy from (README.md, docs/*.md), parsed with the
 * `yaml` package. A block may be indented (inside a list item); its indentation is removed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface YamlBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  text: string;
  value: unknown;
}

export const REPO_ROOT = join(import.meta.dirname, '..', '..');

export function userDocs(): string[] {
  return [
    'README.md',
    'homeassistant-addon/mowability/DOCS.md',
    ...readdirSync(join(REPO_ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
}

export function yamlBlocks(file: string): YamlBlock[] {
  const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
  const blocks: YamlBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```yaml\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(Math.min(indent, lines[j]!.search(/\S|$/))));
    const text = body.join('\n');
    blocks.push({ file, line: i + 1, text, value: parse(text) as unknown });
    i = j;
  }
  return blocks;
}
