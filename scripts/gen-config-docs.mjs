#!/usr/bin/env node
// Rewrites the settings tables in README.md and docs/configuration.md from the
// configuration schema. Run via `npm run docs:config` (builds first).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { replaceSettingsTable } from '../dist/config/docsTable.js';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const file of ['README.md', 'docs/configuration.md']) {
  const path = `${root}${file}`;
  const before = readFileSync(path, 'utf8');
  const after = replaceSettingsTable(before);
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}: ${after === before ? 'up to date' : 'updated'}`);
}
