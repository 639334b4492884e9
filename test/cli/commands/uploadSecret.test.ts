import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { createUploadMatcher } from '../../../src/http/uploadsMatch.js';
import { assertBuilt, runBuiltCli, runCliInProcess } from '../../helpers/httpCli.js';
import { useTempDir } from '../../helpers/httpTempDir.js';

const PASSKEY = '0123456789ABCDEF0123456789ABCDEF';

describe('mowability upload-secret', () => {
  const temp = useTempDir();

  it('prints an upload line that, pasted into the config, matches the gateway; the secret is not echoed', async () => {
    const result = await runCliInProcess(['upload-secret', 'ecowitt', '--json'], { MOWABILITY_UPLOAD_SECRET: PASSKEY });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(PASSKEY);
    const { upload } = JSON.parse(result.stdout);
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ stations: [{ id: 'gw', name: 'GW', format: 'ecowitt-http', upload }] }));
    const config = loadConfig({ argv: ['--config', file], env: { MOWABILITY_DB_PATH: temp.dbPath } });
    const matcher = createUploadMatcher(config.stations);
    expect(matcher.ecowitt(PASSKEY)).toEqual({ station: config.stations[0] });
    expect(matcher.ecowitt(`${PASSKEY}0`)).toEqual({ refused: 'unknown_passkey' });
  });

  it('prints the same line for an Ambient MAC however it is spelt, and it matches the console', async () => {
    const lines = await Promise.all(
      ['00:0e:c6:aa:bb:cc', '000EC6AABBCC', '00-0E-C6-AA-BB-CC'].map(
        async (mac) => (await runCliInProcess(['upload-secret', 'ambient', '--json'], { MOWABILITY_UPLOAD_SECRET: mac })).stdout,
      ),
    );
    expect(new Set(lines).size).toBe(1);
    const { upload } = JSON.parse(lines[0] ?? 'null');
    expect(
      createUploadMatcher([{ id: 'a', name: 'A', format: 'ecowitt-http', topic: 't', upload }]).ecowitt('00:0E:C6:AA:BB:CC'),
    ).toMatchObject({ station: { id: 'a' } });
  });

  it('reads a WU password from standard input (final newline dropped) and prints the line to paste', async () => {
    assertBuilt();
    const result = await runBuiltCli(['upload-secret', 'wunderground', 'KXXTEST1'], {}, process.execPath, 'hunter2\n');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('hunter2');
    const line = /"upload": (\{.*\})/.exec(result.stdout)?.[1];
    const upload = JSON.parse(line ?? 'null');
    expect(
      createUploadMatcher([{ id: 'p', name: 'P', format: 'wunderground', topic: 't', upload }]).wunderground('KXXTEST1', 'hunter2'),
    ).toMatchObject({ station: { id: 'p' } });
  });

  it('refuses an empty secret and a wrong protocol with a hint', async () => {
    const empty = await runCliInProcess(['upload-secret', 'ecowitt'], {});
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no secret given');
    const wrong = await runCliInProcess(['upload-secret', 'davis'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('expected ecowitt, ambient or wunderground, got "davis"');
    const missingId = await runCliInProcess(['upload-secret', 'wunderground'], { MOWABILITY_UPLOAD_SECRET: 'x' });
    expect(missingId.code).toBe(2);
  });
});
