import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClockSync } from '../../src/util/clockSync.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

describe('readClockSync (systemd-timesyncd marker)', () => {
  const temp = makeTempDir();

  it('synchronized with the marker, unsynchronized with only its directory, unknown without either or when switched off', () => {
    const marker = join(temp.dir, 'timesync', 'synchronized');
    expect(readClockSync(marker)).toBe('unknown');
    mkdirSync(join(temp.dir, 'timesync'));
    expect(readClockSync(marker)).toBe('unsynchronized');
    writeFileSync(marker, '');
    expect(readClockSync(marker)).toBe('synchronized');
    expect(readClockSync('')).toBe('unknown');
    temp.cleanup();
  });
});
