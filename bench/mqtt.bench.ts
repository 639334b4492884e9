/**
 * MQTT ingest: an mqtt.js publisher sends rtl_433 events for 10 stations
 * through the embedded aedes broker into the product's MQTT service (parse,
 * history, batched SQLite write, recompute, publish), compared with the same
 * harness against an aedes broker whose subscriber does nothing. Warm-up,
 * then 3 interleaved rounds; plus a fixed-rate run at 1000 readings/s.
 */
import { join } from 'node:path';
import type { MqttStats } from '../src/mqtt/service.js';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { forkServer, type ForkedServer } from './lib/ipc.js';
import { connectPublisher, publishAtRate, timeIngest, type Reading } from './lib/mqttLoad.js';
import { atLeast, atMost, measured, type Figure } from './lib/report.js';
import { benchStations, rtl433Readings, RTL433_TOPIC } from './lib/rtl433.js';
import { median, medianRatio } from './lib/stats.js';
import { nowMs, sleep } from './lib/time.js';

const STATION_COUNT = 10;

/** Messages the service has finished with: accepted, duplicate or rejected by the station they match. */
function handled(stats: MqttStats): number {
  return stats.accepted + stats.duplicates + stats.rejected;
}

export const mqttBenchmark: Benchmark = {
  name: 'mqtt',
  title: 'MQTT ingest: rtl_433 events through the embedded broker into the daemon',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const perRound = context.quick ? 4000 : 10_000;
    const rounds = 3;
    const fixedRate = 1000;
    const fixedSeconds = context.quick ? 3 : 5;
    const serversDir = join(context.repoRoot, 'dist-bench', 'bench', 'servers');
    // One chronological stream for everything the daemon will see, ending a minute ago (never in its future).
    const total = perRound * (rounds + 1) + fixedRate * fixedSeconds;
    const stream = rtl433Readings(STATION_COUNT, Math.ceil(total / STATION_COUNT), Date.now() - 60_000);
    let offset = 0;
    const take = (count: number): Reading[] => {
      const slice = stream.slice(offset, offset + count);
      offset += count;
      return slice;
    };

    const baseline = await forkServer<{ port: number }>(join(serversDir, 'mqttBaseline.js'), [RTL433_TOPIC, '1']);
    let daemon: ForkedServer<{ port: number }> | undefined;
    const publishers: Awaited<ReturnType<typeof connectPublisher>>[] = [];
    try {
      daemon = await forkServer<{ port: number }>(join(serversDir, 'mqttDaemon.js'), [JSON.stringify(benchStations(STATION_COUNT))]);
      const daemonServer = daemon;
      const basePublisher = await connectPublisher(baseline.ready.port, 'bench-publisher-baseline');
      const daemonPublisher = await connectPublisher(daemon.ready.port, 'bench-publisher-daemon');
      publishers.push(basePublisher, daemonPublisher);
      const baseCount = async (): Promise<number> => (await baseline.request<{ count: number }>('count')).count;
      const daemonCount = async (): Promise<number> => handled(await daemonServer.request<MqttStats>('stats'));
      const timeoutMs = 60_000;

      const runBaseline = async (readings: Reading[]): Promise<number> =>
        (await timeIngest(basePublisher, readings, baseCount, { timeoutMs })).readingsPerSecond;
      const runDaemon = async (readings: Reading[]): Promise<number> => {
        const started = nowMs();
        const result = await timeIngest(daemonPublisher, readings, daemonCount, { timeoutMs });
        if (!Number.isFinite(result.readingsPerSecond)) return Number.NaN;
        await daemonServer.request('flush', 30_000); // the batch of this round reaches SQLite
        return (readings.length / (nowMs() - started)) * 1000;
      };

      // Warm-up: both paths, same amount.
      const warm = take(perRound);
      await runBaseline(warm);
      await runDaemon(warm); // a separate broker: the daemon sees these readings for the first time
      const baseRates: number[] = [];
      const daemonRates: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        const readings = take(perRound);
        baseRates.push(await runBaseline(readings));
        daemonRates.push(await runDaemon(readings));
        context.log(`round ${round}: baseline ${Math.round(baseRates.at(-1) ?? 0)}/s, daemon ${Math.round(daemonRates.at(-1) ?? 0)}/s`);
      }

      // Fixed rate: publish at 1000 readings/s and see how long the backlog takes to drain after the last publish.
      const fixed = take(fixedRate * fixedSeconds);
      const before = await daemonCount();
      const achievedRate = await publishAtRate(daemonPublisher, fixed, fixedRate);
      const publishEnded = nowMs();
      let drainedMs = Number.NaN;
      while (nowMs() - publishEnded < 30_000) {
        if ((await daemonCount()) - before >= fixed.length) {
          drainedMs = nowMs() - publishEnded;
          break;
        }
        await sleep(5);
      }
      const stats = await daemon.request<MqttStats>('stats');

      const figures: Figure[] = [
        measured(
          'mqtt.baseline.rps',
          'null subscriber readings/s',
          median(baseRates),
          'readings/s',
          undefined,
          `rounds ${baseRates.map(Math.round).join('/')}`,
        ),
        measured(
          'mqtt.daemon.rps',
          'daemon readings/s (incl. SQLite flush)',
          median(daemonRates),
          'readings/s',
          atLeast(1000),
          `rounds ${daemonRates.map(Math.round).join('/')}`,
        ),
        measured('mqtt.daemon.vsBaseline', 'daemon / null subscriber readings/s', medianRatio(daemonRates, baseRates), 'x', atLeast(0.5)),
        measured(
          'mqtt.fixedRate.drainMs',
          `backlog after ${fixedSeconds} s at ${fixedRate}/s drained in`,
          drainedMs,
          'ms',
          atMost(1000),
          `publisher achieved ${Math.round(achievedRate)}/s`,
        ),
        measured(
          'mqtt.rejected',
          'readings rejected (all were valid)',
          stats.rejected,
          'readings',
          atMost(0),
          `accepted ${stats.accepted}, duplicates ${stats.duplicates}, history commits ${stats.historyCommits}`,
        ),
      ];
      return {
        figures,
        details: {
          perRound,
          stationCount: STATION_COUNT,
          baseRates,
          daemonRates,
          fixed: { fixedRate, fixedSeconds, achievedRate, drainedMs },
          stats,
        },
      };
    } finally {
      for (const publisher of publishers) await publisher.endAsync(true).catch(() => undefined);
      await baseline.stop();
      await daemon?.stop(15_000);
    }
  },
};
