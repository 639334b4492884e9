import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { hashApiKey } from '../../src/store/apiKeyCodec.js';
import { assertBuilt, runBuiltCli, runCliInProcess, useCliTempDir } from '../helpers/httpCli.js';

describe('admin CLI', () => {
  const fixture = useCliTempDir();
  const { cli } = fixture;
  /** The admin commands other than `keys add` work on the daemon's existing database only. */
  const createDatabase = async () => (await Database.open(fixture.temp.dbPath)).close();

  describe('keys', () => {
    it('add --json prints id, owner, key and allow_get once; the database holds only the hash', async () => {
      const result = await cli('keys', 'add', 'alice', '--allow-get', '--note', 'garden', '--json');
      expect(result.code).toBe(0);
      const created = JSON.parse(result.stdout);
      expect(Object.keys(created).sort()).toEqual(['allow_get', 'id', 'key', 'owner']);
      expect(created).toMatchObject({ id: 1, owner: 'alice', allow_get: true });
      const db = await Database.open(fixture.temp.dbPath);
      try {
        const rows = await db.all<{ key_hash: string }>('SELECT key_hash FROM api_keys');
        expect(rows).toEqual([{ key_hash: hashApiKey(created.key) }]);
      } finally {
        await db.close();
      }
    });

    it('list never shows keys, in table and JSON form', async () => {
      const created = JSON.parse((await cli('keys', 'add', 'bob', '--json')).stdout);
      const table = await cli('keys', 'list');
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/ID\s+OWNER/);
      expect(table.stdout).toContain('bob');
      expect(table.stdout).not.toContain(created.key);
      const json = await cli('keys', 'list', '--json');
      const listed = JSON.parse(json.stdout);
      expect(listed).toEqual([
        {
          id: created.id,
          owner: 'bob',
          created_at: expect.any(String),
          disabled: false,
          allow_get: false,
          note: null,
          expires_at: null,
          daily_quota: null,
          last_used_at: null,
        },
      ]);
      expect(json.stdout).not.toContain(created.key);
    });

    it('disable, enable, allow-get, deny-get and remove change the key; an unknown id fails with exit 1', async () => {
      await cli('keys', 'add', 'carol');
      const state = async () => JSON.parse((await cli('keys', 'list', '--json')).stdout)[0];
      expect((await cli('keys', 'disable', '1')).code).toBe(0);
      expect(await state()).toMatchObject({ disabled: true });
      expect((await cli('keys', 'enable', '1')).code).toBe(0);
      expect(await state()).toMatchObject({ disabled: false });
      expect((await cli('keys', 'allow-get', '1')).code).toBe(0);
      expect(await state()).toMatchObject({ allow_get: true });
      expect((await cli('keys', 'deny-get', '1')).code).toBe(0);
      expect(await state()).toMatchObject({ allow_get: false });
      expect((await cli('keys', 'remove', '1')).code).toBe(0);
      expect(await state()).toBeUndefined();
      const missing = await cli('keys', 'disable', '1');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('no API key with ID 1');
    });
  });

  describe('ip', () => {
    beforeEach(createDatabase);

    it('blocks, lists and unblocks addresses and ranges', async () => {
      expect((await cli('ip', 'block', '10.1.2.3/8')).stdout).toContain('Blocked 10.0.0.0/8.');
      expect((await cli('ip', 'block', '2001:db8::1')).code).toBe(0);
      const listed = JSON.parse((await cli('ip', 'list', '--json')).stdout).map((entry: { cidr: string }) => entry.cidr);
      expect(listed.sort()).toEqual(['10.0.0.0/8', '2001:db8::1/128']);
      expect((await cli('ip', 'unblock', '10.0.0.0/8')).code).toBe(0);
      const again = await cli('ip', 'unblock', '10.0.0.0/8');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('is not blocked');
    });

    it('a blank owner is a usage error (exit 2)', async () => {
      const result = await cli('keys', 'add', '   ');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('owner must be 1 to');
      expect(result.stderr).toContain('--help');
    });

    it('an invalid address is a usage error naming it', async () => {
      const result = await cli('ip', 'block', 'not-an-address');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('"not-an-address" is not an IPv4/IPv6 address or CIDR range');
      expect(result.stderr).toContain('--help');
    });
  });

  it('maintenance on|off|status', async () => {
    await createDatabase();
    expect(JSON.parse((await cli('maintenance', 'status', '--json')).stdout)).toEqual({ maintenance: false });
    expect((await cli('maintenance', 'on')).stdout).toBe('Maintenance mode is on.\n');
    expect(JSON.parse((await cli('maintenance', 'status', '--json')).stdout)).toEqual({ maintenance: true });
    expect((await cli('maintenance', 'off')).code).toBe(0);
    expect((await cli('maintenance', 'status')).stdout).toBe('Maintenance mode is off.\n');
    expect((await cli('maintenance', 'sideways')).code).toBe(2);
  });

  it('calc prints the calculation result without a server', async () => {
    const result = await cli('calc', '--temperature', '18', '--precipitation_rate', '0', '--humidity', '50', '--season', 'spring');
    expect(result.code).toBe(0);
    const mfi = JSON.parse(result.stdout);
    expect(mfi).toMatchObject({
      season: 'spring',
      season_source: 'manual',
      available_fields: ['temperature', 'precipitation_rate', 'humidity'],
    });
    const missing = await cli('calc', '--temperature=-5');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Missing or invalid required field(s): precipitation_rate.');
  });

  it('config prints the effective configuration with flags applied', async () => {
    const result = await cli('config', '--http-port', '9123');
    expect(result.code).toBe(0);
    const config = JSON.parse(result.stdout);
    expect(config.http.port).toBe(9123);
    expect(config.db.path).toBe(fixture.temp.dbPath);
  });

  describe('usage errors (exit 2) name what is wrong and point to --help', () => {
    it.each([
      [['frobnicate'], 'unknown command "frobnicate"'],
      [['keys'], 'missing subcommand'],
      [['keys', 'add'], 'missing OWNER'],
      [['keys', 'disable', 'abc'], 'ID must be a positive whole number'],
      [['keys', 'list', '--bogus'], "Unknown option '--bogus'"],
      [['calc', '--season', 'monsoon', '--temperature', '1'], '--season must be'],
    ])('%j', async (argv, expected) => {
      const result = await runCliInProcess(argv, fixture.env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(expected);
      expect(result.stderr).toContain('--help');
    });
  });

  it.each([['keys'], ['ip'], ['maintenance'], ['calc'], ['config'], ['serve']])('%s --help prints usage and exits 0', async (command) => {
    const result = await cli(command, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: mowability ${command}`);
  });

  describe('configuration errors exit with 78', () => {
    it('an unknown key in the --config file names the key', async () => {
      const file = join(fixture.temp.dir, 'bad.json');
      writeFileSync(file, JSON.stringify({ http: { prot: 1 } }));
      const result = await cli('keys', 'list', '--config', file);
      expect(result.code).toBe(78);
      expect(result.stderr).toContain('unknown key "http.prot"');
    });

    it('the built executable exits 78 on an invalid environment value', async () => {
      assertBuilt();
      const result = await runBuiltCli(['config'], { ...fixture.env, MOWABILITY_HTTP_PORT: '70000' });
      expect(result.code).toBe(78);
      expect(result.stderr).toContain('"http.port" = 70000 is invalid');
    });

    it('the built executable exits 78 from serve with an invalid value before opening anything', async () => {
      assertBuilt();
      const result = await runBuiltCli(['serve'], { ...fixture.env, MOWABILITY_LOG_LEVEL: 'chatty' });
      expect(result.code).toBe(78);
      expect(result.stderr).toContain('"log.level" = "chatty"');
    });
  });
});
