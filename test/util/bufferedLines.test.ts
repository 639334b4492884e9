/** The access lines' destination: blocks of lines, at most flushAfterMs late, nothing lost at exit. */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferedLines } from '../../src/util/bufferedLines.js';
import { assertBuilt } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/wait.js';

let temp: ReturnType<typeof makeTempDir>;
let path: string;
let fd: number;
beforeEach(() => {
  temp = makeTempDir('buffered-lines-');
  path = join(temp.dir, 'out.log');
  fd = openSync(path, 'a');
});
afterEach(() => {
  closeSync(fd);
  temp.cleanup();
});

const fileText = (): string => readFileSync(path, 'utf8');
const line = (n: number): string => `{"n":${n},"pad":"${'x'.repeat(90)}"}\n`;

describe('bufferedLines', () => {
  it('holds lines below the block size until the flush timer, then writes them in one piece and in order', async () => {
    const lines = bufferedLines({ fd, blockBytes: 4096, flushAfterMs: 50, maxBufferBytes: 1 << 20 });
    for (let n = 0; n < 3; n++) lines.write(line(n));
    expect(fileText()).toBe('');
    await waitUntil(() => fileText().length > 0, 'the flush timer to write the held lines');
    expect(fileText()).toBe(line(0) + line(1) + line(2));
  });

  it('writes once a block is full, without waiting for the timer', async () => {
    const lines = bufferedLines({ fd, blockBytes: 1024, flushAfterMs: 60_000, maxBufferBytes: 1 << 20 });
    const expected: string[] = [];
    for (let n = 0; n < 12; n++) {
      lines.write(line(n));
      expected.push(line(n));
    }
    await waitUntil(() => fileText().length >= 1024, 'a full block on disk');
    expect(expected.join('').startsWith(fileText())).toBe(true);
    await lines.flush();
    expect(fileText()).toBe(expected.join(''));
  });

  it('flush() writes what is waiting now', async () => {
    const lines = bufferedLines({ fd, blockBytes: 4096, flushAfterMs: 60_000, maxBufferBytes: 1 << 20 });
    lines.write(line(7));
    await lines.flush();
    expect(fileText()).toBe(line(7));
  });

  it('loses nothing when the process exits right after a line, as it does after a fatal error (exit flush)', () => {
    assertBuilt();
    const moduleUrl = new URL('../../dist/util/bufferedLines.js', import.meta.url).href;
    const script = [
      `const { bufferedLines } = await import(${JSON.stringify(moduleUrl)});`,
      `const lines = bufferedLines({ fd: 1, blockBytes: 4096, flushAfterMs: 60000, maxBufferBytes: 1 << 20 });`,
      `lines.write('first\\n'); lines.write('last\\n');`,
      `process.exit(3);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.status).toBe(3);
    expect(child.stdout).toBe('first\nlast\n');
  });
});
