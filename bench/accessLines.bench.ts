/**
 * The HTTP access lines: CPU per line written in blocks (the daemon's access
 * logger, src/util/logger.ts) against one write() per line (the main
 * logger, how they were written before), each in a fresh process whose
 * stdout is a pipe drained by this one (as under journald or Docker).
 * Interleaved rounds; the figure is the median of per-round ratios.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { forkServer } from './lib/ipc.js';
import { atMost, measured } from './lib/report.js';
import { median, medianRatio } from './lib/stats.js';

/** The change is worth its lost-at-kill-9 second only if it saves at least half of the line's cost. */
const GOAL_RATIO = 0.5;

/** CPU per line of one writer process, and the bytes it wrote (so a dropped line cannot pass for a cheap one). */
async function cpuPerLine(repoRoot: string, mode: 'blocks' | 'each', count: number): Promise<{ micros: number; bytes: number }> {
  const writer = await forkServer<{ cpuMicros: number }>(
    join(repoRoot, 'dist-bench', 'bench', 'servers', 'logLines.js'),
    [mode, String(count)],
    120_000,
  );
  // The writer exits by itself once it has reported; its exit writes what still waited.
  if (writer.child.exitCode === null) await new Promise((resolve) => writer.child.once('exit', resolve));
  if (writer.child.stdout && !writer.child.stdout.readableEnded) await new Promise((resolve) => writer.child.stdout?.once('end', resolve));
  return { micros: writer.ready.cpuMicros / count, bytes: writer.stdoutBytes() };
}

export const accessLinesBenchmark: Benchmark = {
  name: 'accesslines',
  title: 'HTTP access lines: written in blocks vs one write() per line (stdout a pipe)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const count = context.quick ? 20_000 : 50_000;
    const blocks: number[] = [];
    const each: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const one = await cpuPerLine(context.repoRoot, 'each', count);
      const block = await cpuPerLine(context.repoRoot, 'blocks', count);
      // Every line has the same length (the time field is always 13 digits): equal bytes or a line went missing.
      if (one.bytes !== block.bytes) throw new Error(`the writers wrote ${one.bytes} and ${block.bytes} bytes: lines were lost`);
      each.push(one.micros);
      blocks.push(block.micros);
      context.log(
        `round ${round}: one write per line ${one.micros.toFixed(2)} µs, in blocks ${block.micros.toFixed(2)} µs, ${block.bytes} bytes each`,
      );
    }
    const fixed = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join('/');
    return {
      figures: [
        measured(
          'accessLines.ratio',
          'CPU per line in blocks / one write() per line',
          medianRatio(blocks, each),
          'x',
          atMost(GOAL_RATIO),
          `${count} lines per round`,
        ),
        measured('accessLines.blocks', 'CPU per access line, in blocks', median(blocks), 'µs', undefined, `rounds ${fixed(blocks)}`),
        measured('accessLines.each', 'CPU per access line, one write() each', median(each), 'µs', undefined, `rounds ${fixed(each)}`),
      ],
      details: { count, blocks, each },
    };
  },
};
