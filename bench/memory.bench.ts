/**
 * Memory of the real daemon: RSS after an idle start, peak under HTTP +
 * MQTT load, and after the load, against the RSS of a bare node process
 * measured in the same run.
 */
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { daemonSession } from './daemonSession.bench.js';
import { MIB } from './lib/proc.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { ratio } from './lib/stats.js';

export const memoryBenchmark: Benchmark = {
  name: 'memory',
  title: 'Memory (RSS) of the daemon',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const session = await daemonSession(context);
    if (typeof session === 'string') {
      return {
        figures: [
          notMeasured('memory.idleMb', 'idle RSS', 'MB', session, atMost(90)),
          notMeasured('memory.afterVsIdle', 'RSS after load / idle', 'x', session, atMost(1.1)),
        ],
        details: {},
      };
    }
    const { idle, load, after, bareNodeRssBytes } = session;
    const figures: Figure[] = [
      measured(
        'memory.idleMb',
        `idle RSS (${idle.secondsAfterStart.toFixed(0)} s after start)`,
        idle.rssBytes / MIB,
        'MB',
        atMost(90),
        `bare node ${(bareNodeRssBytes / MIB).toFixed(1)} MB`,
      ),
      measured('memory.idleVsBareNode', 'idle RSS / bare node RSS', ratio(idle.rssBytes, bareNodeRssBytes), 'x'),
      measured(
        'memory.peakMb',
        `peak RSS under HTTP + MQTT load (${load.seconds} s)`,
        load.peakRssBytes / MIB,
        'MB',
        undefined,
        `${load.httpRequests} HTTP requests (${load.httpNon2xx} non-2xx), ${load.mqttReadings} readings`,
      ),
      measured('memory.peakVsIdle', 'peak RSS / idle', ratio(load.peakRssBytes, idle.rssBytes), 'x'),
      measured(
        'memory.loadCpuPerKiloRequest',
        'daemon CPU under the load per 1000 HTTP requests (MQTT included)',
        (load.cpuSeconds * 1000) / Math.max(1, load.httpRequests),
        'CPU-s',
        undefined,
        `${load.cpuSeconds.toFixed(2)} CPU-s in ${load.seconds} s (all threads, schedstat)`,
      ),
      measured('memory.afterMb', `RSS ${after.seconds} s after the load`, after.rssBytes / MIB, 'MB'),
      measured('memory.afterVsIdle', 'RSS after load / idle', ratio(after.rssBytes, idle.rssBytes), 'x', atMost(1.1)),
    ];
    return { figures, details: { idle, load, after, bareNodeRssBytes } };
  },
};
