/**
 * SD-card writes of the real daemon: bytes (/proc/<pid>/io write_bytes =
 * storage, wchar = every write() incl. logs and sockets) and fsync/fdatasync
 * calls (strace) per 1000 ingested readings, and over an idle window.
 */
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { daemonSession, type WindowMeasure } from './daemonSession.bench.js';
import { KIB } from './lib/proc.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { ratio } from './lib/stats.js';

const NO_STRACE = 'strace missing';

function fsyncFigure(id: string, label: string, window: WindowMeasure, per: number, goal: number | undefined): Figure {
  const target = goal === undefined ? undefined : atMost(goal);
  if (window.fsyncs === null) return notMeasured(id, label, 'fsyncs', NO_STRACE, target);
  return measured(id, label, window.fsyncs * per, 'fsyncs', target, `${window.fsyncs} in the window`);
}

export const writesBenchmark: Benchmark = {
  name: 'writes',
  title: 'SD-card writes of the daemon (/proc/<pid>/io, strace)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const session = await daemonSession(context);
    if (typeof session === 'string') {
      return {
        figures: [
          notMeasured('writes.burst.writeKiB', 'storage KiB per 1000 readings', 'KiB', session, atMost(250)),
          notMeasured('writes.burst.fsyncs', 'fsyncs per 1000 readings', 'fsyncs', session, atMost(20)),
          notMeasured('writes.idle.writeBytes', 'storage bytes while idle', 'bytes', session, atMost(0)),
        ],
        details: {},
      };
    }
    const { burst, steady, idle, naive } = session;
    const naiveKiBPer1000 = (naive.writeBytes * (1000 / naive.rows)) / KIB;
    const perBurst = 1000 / burst.readings;
    const perSteady = 1000 / steady.readings;
    const figures: Figure[] = [
      measured(
        'writes.burst.writeKiB',
        `storage KiB per 1000 readings (${burst.ratePerSecond}/s)`,
        (burst.io.writeBytes * perBurst) / KIB,
        'KiB',
        atMost(250),
        `${burst.readings} readings, 10 stations`,
      ),
      measured(
        'writes.naive.writeKiB',
        'baseline: one autocommit per reading, KiB per 1000',
        naiveKiBPer1000,
        'KiB',
        undefined,
        naive.fsyncs === null ? 'fsyncs not measured (strace missing)' : `${naive.fsyncs} fsyncs per 1000`,
      ),
      measured(
        'writes.burst.vsNaive',
        'daemon (500/s) / autocommit baseline bytes',
        ratio(burst.io.writeBytes * perBurst, naive.writeBytes * (1000 / naive.rows)),
        'x',
      ),
      measured(
        'writes.burst.wcharKiB',
        'all write() KiB per 1000 readings (incl. logs, sockets)',
        (burst.io.wchar * perBurst) / KIB,
        'KiB',
      ),
      fsyncFigure('writes.burst.fsyncs', 'fsyncs per 1000 readings', burst, perBurst, 20),
      measured(
        'writes.steady.writeKiB',
        `storage KiB per 1000 readings at a station's pace (${steady.ratePerSecond}/s), 5 s flush (shipped 300 s: see storage)`,
        (steady.io.writeBytes * perSteady) / KIB,
        'KiB',
        undefined,
        `${steady.readings} readings in ${steady.seconds.toFixed(0)} s; ${(((steady.io.writeBytes / steady.seconds) * 86400) / 2 ** 20).toFixed(1)} MiB/day`,
      ),
      measured(
        'writes.steady.vsNaive',
        'daemon (station pace) / autocommit baseline bytes',
        ratio(steady.io.writeBytes * perSteady, naive.writeBytes * (1000 / naive.rows)),
        'x',
      ),
      fsyncFigure('writes.steady.fsyncs', "fsyncs per 1000 readings at a station's pace, 5 s flush", steady, perSteady, undefined),
      measured('writes.idle.writeBytes', `storage bytes while idle (${idle.seconds.toFixed(0)} s)`, idle.io.writeBytes, 'bytes', atMost(0)),
      measured(
        'writes.idle.wchar',
        'all write() bytes while idle',
        idle.io.wchar,
        'bytes',
        undefined,
        'eventfd wake-ups (8 B) of the 1 s key-cache poll, logs, keepalives',
      ),
      idle.fsyncs === null
        ? notMeasured('writes.idle.fsyncs', 'fsyncs while idle', 'fsyncs', NO_STRACE, atMost(0))
        : measured('writes.idle.fsyncs', 'fsyncs while idle', idle.fsyncs, 'fsyncs', atMost(0)),
    ];
    return { figures, details: { straced: session.straced, naive, burst, steady, idle } };
  },
};
