/** The access lines' destination: blocks of lines, at most about flushAfterMs late, none dropped, nothing lost at exit. */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferedLines } from '../../src/util/logger.js';
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
const lines = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => line(from + i)).join('');

describe('bufferedLines', () => {
  it('holds lines below the block size until the flush timer, then writes them in one piece and in order', async () => {
    const out = bufferedLines({ fd, blockBytes: 4096, flushAfterMs: 50 });
    for (let n = 0; n < 3; n++) out.write(line(n));
    expect(fileText()).toBe('');
    expect(out.waitingBytes()).toBe(lines(0, 3).length);
    await waitUntil(() => fileText().length > 0, 'the flush timer to write the held lines');
    expect(fileText()).toBe(lines(0, 3));
    await waitUntil(() => out.waitingBytes() === 0, 'nothing left waiting');
  });

  it('writes a full block without waiting for the timer', async () => {
    const out = bufferedLines({ fd, blockBytes: 1024, flushAfterMs: 60_000 });
    for (let n = 0; n < 12; n++) out.write(line(n));
    await waitUntil(() => fileText().length >= 1024, 'a full block on disk long before the 60 s timer');
    expect(lines(0, 12).startsWith(fileText())).toBe(true);
  });

  it('writes a full block at once, and the lines after it with the timer', async () => {
    const out = bufferedLines({ fd, blockBytes: 1024, flushAfterMs: 50 });
    for (let n = 0; n < 12; n++) out.write(line(n));
    await waitUntil(() => fileText() === lines(0, 12), 'every line on disk, in order');
    expect(out.waitingBytes()).toBe(0);
  });

  it('never holds more than a block however fast lines come, and drops none (a slow reader makes the writer wait, as before)', async () => {
    const out = bufferedLines({ fd, blockBytes: 4096, flushAfterMs: 50 });
    const count = 10_000;
    let mostWaiting = 0;
    // Without a turn of the event loop: an asynchronous write could not finish in between, so lines would pile up.
    for (let n = 0; n < count; n++) {
      out.write(line(n));
      mostWaiting = Math.max(mostWaiting, out.waitingBytes());
    }
    expect(mostWaiting).toBeLessThan(4096);
    await waitUntil(() => out.waitingBytes() === 0, 'the last lines written by the timer');
    expect(fileText()).toBe(lines(0, count));
  });

  it('loses nothing when the process exits right after a line, as it does after a fatal error (exit flush)', () => {
    assertBuilt();
    const moduleUrl = new URL('../../dist/util/logger.js', import.meta.url).href;
    const script = [
      `const { bufferedLines } = await import(${JSON.stringify(moduleUrl)});`,
      `const lines = bufferedLines({ fd: 1, blockBytes: 4096, flushAfterMs: 60000 });`,
      `lines.write('first\\n'); lines.write('last\\n');`,
      `process.exit(3);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.status).toBe(3);
    expect(child.stdout).toBe('first\nlast\n');
  });
});
