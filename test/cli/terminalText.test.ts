import { describe, expect, it } from 'vitest';
import { assertPrintable, escapeTerminalText, terminalJson } from '../../src/cli/terminalText.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { systemClock } from '../../src/util/clock.js';
import { useCliTempDir } from '../helpers/httpCli.js';

/** Clears the screen, homes the cursor and forges a second line that looks like CLI output. */
const CLEAR_SCREEN_ATTACK = '\u001b[2J\u001b[Hmallory\nAPI key 7 removed.';
/** Right-to-left override: the terminal shows "evil" reversed (CVE-2021-42574 style). */
const BIDI_ATTACK = 'admin\u202Elive';
/** Anything that can steer a terminal: C0, DEL, C1 (U+009B is an 8-bit CSI), bidi overrides. */
// The very characters under test.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

describe('terminal text (pure)', () => {
  it('escapes C0, DEL, C1 and bidi characters as \\uXXXX and leaves other text alone', () => {
    expect(escapeTerminalText('\u001b[2J')).toBe('\\u001b[2J');
    expect(escapeTerminalText('a\u007Fb\u009Bc\u202Ed\u2066e\r\n')).toBe('a\\u007fb\\u009bc\\u202ed\\u2066e\\u000d\\u000a');
    expect(escapeTerminalText('Gärtnerei Müller – 草坪 🌱')).toBe('Gärtnerei Müller – 草坪 🌱');
  });

  it('JSON output keeps its value and its layout but no raw control or bidi character', () => {
    const value = { owner: CLEAR_SCREEN_ATTACK, note: `${BIDI_ATTACK}\u009B31m\u007F` };
    const text = terminalJson(value);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(text)).toEqual(value);
    expect(text.split('\n')).toHaveLength(4);
  });

  it('refuses unsafe input with a usage error naming the character and where it is', () => {
    expect(() => assertPrintable('keys add', 'OWNER', 'alice')).not.toThrow();
    expect(() => assertPrintable('keys add', 'OWNER', CLEAR_SCREEN_ATTACK)).toThrow(
      /OWNER must not contain .* \(found U\+001B at position 0\)/,
    );
    expect(() => assertPrintable('keys add', '--note', BIDI_ATTACK)).toThrow(/U\+202E at position 5/);
  });
});

describe('CLI against terminal escape injection', () => {
  const fixture = useCliTempDir();
  const { cli } = fixture;

  async function withStore(work: (store: ServiceStore) => Promise<void>): Promise<void> {
    const database = await Database.open(fixture.temp.dbPath);
    try {
      await work(new ServiceStore(database, systemClock));
    } finally {
      await database.close();
    }
  }

  it('keys add refuses an owner or note with escape sequences (exit 2) and stores nothing', async () => {
    // The daemon's database exists (only serve and keys add create one), so the lists below can show it empty.
    await withStore(async () => {});
    const owner = await cli('keys', 'add', CLEAR_SCREEN_ATTACK);
    expect(owner.code).toBe(2);
    expect(owner.stderr).toMatch(
      /^mowability keys add: OWNER must not contain control or bidirectional-override characters \(found U\+001B/,
    );
    expect(owner.stderr).not.toMatch(RAW_CONTROL);
    expect(owner.stdout).toBe('');
    const note = await cli('keys', 'add', 'alice', '--note', BIDI_ATTACK);
    expect(note.code).toBe(2);
    expect(note.stderr).toMatch(/--note must not contain .*U\+202E/);
    const block = await cli('ip', 'block', '203.0.113.7', '--note', 'spam\u009B2J');
    expect(block.code).toBe(2);
    expect(block.stderr).toMatch(/ip block: --note must not contain .*U\+009B/);
    const listed = await cli('keys', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(JSON.parse((await cli('ip', 'list', '--json')).stdout)).toEqual([]);
  });

  it('rows stored before the check (or by other means) print escaped, as a table and as JSON', async () => {
    await withStore(async (store) => {
      await store.addKey(CLEAR_SCREEN_ATTACK, { note: BIDI_ATTACK });
      await store.blockAddress('198.51.100.0/24', `bot\u001b]0;owned\u0007`);
    });
    const table = await cli('keys', 'list');
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(RAW_CONTROL);
    expect(table.stdout).toContain('\\u001b[2J\\u001b[Hmallory\\u000aAPI key 7 removed.');
    expect(table.stdout).toContain('admin\\u202elive');
    // The forged line did not become a line of its own.
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(2);

    const json = await cli('keys', 'list', '--json');
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ owner: CLEAR_SCREEN_ATTACK.trim(), note: BIDI_ATTACK });

    const ips = await cli('ip', 'list');
    expect(ips.stdout).not.toMatch(RAW_CONTROL);
    expect(ips.stdout).toContain('bot\\u001b]0;owned\\u0007');
  });
});
