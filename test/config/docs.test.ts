import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replaceSettingsTable, renderSettingsTable } from '../../src/config/docsTable.js';
import { loadConfig } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { listSettings } from '../../src/config/schema.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('generated settings documentation', () => {
  it.each([['README.md'], ['docs/configuration.md']])('%s holds the current settings table (run "npm run docs:config")', (file) => {
    const document = readFileSync(`${root}${file}`, 'utf8');
    expect(replaceSettingsTable(document)).toBe(document);
  });

  it('documents every setting with its environment variable', () => {
    const table = renderSettingsTable();
    for (const { key, spec } of listSettings()) {
      expect(table).toContain(`\`${key}\``);
      if (spec.env) expect(table).toContain(`\`${spec.env}\``);
    }
  });

  it('the example configuration file is valid', () => {
    const config = loadConfig({ argv: ['--config', `${root}config/mowability.example.json`], env: {}, units: stationUnitConfigs() });
    expect(config.http.port).toBe(8080);
  });
});
