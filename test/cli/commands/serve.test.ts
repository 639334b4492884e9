import { describe, expect, it } from 'vitest';
import { keyCommandHint } from '../../../src/cli/commands/serve.js';

describe('keyCommandHint', () => {
  it('names the absolute database path however it was configured (MOWABILITY_DB_PATH included)', () => {
    expect(keyCommandHint({ dbPath: '/var/lib/mowability/mowability.db', cwd: '/opt/mowability', underSystemd: false })).toBe(
      'npx mowability keys add <owner> --db-path=/var/lib/mowability/mowability.db',
    );
  });

  it('resolves a relative database path and config file against the daemon working directory', () => {
    expect(keyCommandHint({ configFile: 'conf/mow.json', dbPath: './data/mowability.db', cwd: '/srv/mow', underSystemd: false })).toBe(
      'npx mowability keys add <owner> --config /srv/mow/conf/mow.json --db-path=/srv/mow/data/mowability.db',
    );
  });

  it('quotes paths with spaces for the shell', () => {
    expect(keyCommandHint({ dbPath: "/home/a b/it's.db", cwd: '/', underSystemd: false })).toBe(
      `npx mowability keys add <owner> '--db-path=/home/a b/it'\\''s.db'`,
    );
  });

  it('under systemd names the wrapper that runs the CLI as the service user on its database', () => {
    expect(keyCommandHint({ dbPath: '/var/lib/mowability/mowability.db', cwd: '/', underSystemd: true })).toBe(
      'sudo mowability keys add <owner>',
    );
  });
});
