#!/usr/bin/env node
// Rewrites the settings tables in README.md and docs/configuration.md from the
// configuration schema and the settings of the station unit modules (stationUnits() in
// src/daemon.ts, the list the daemon plugs in). Run via `npm run docs:config` (builds first).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { replaceSettingsTable } from '../dist/config/docsTable.js';
import { stationUnits } from '../dist/daemon.js';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const file of ['README.md', 'docs/configuration.md']) {
  const path = `${root}${file}`;
  const before = readFileSync(path, 'utf8');
  const after = replaceSettingsTable(before, stationUnits());
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}: ${after === before ? 'up to date' : 'updated'}`);
}
