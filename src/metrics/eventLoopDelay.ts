/**
 * The event-loop delay series (`nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,p99}_seconds`)
 * from a sampler that wakes once a second.
 *
 * prom-client's default metrics sample the loop with a 10 ms libuv timer: 100 wake-ups a second for
 * as long as the daemon runs, measured at about 3.5 ms of CPU per idle second (some 300 CPU-seconds
 * a day, most of an idle Raspberry Pi's cost). Its monitor is therefore started with a one-hour
 * resolution and its histogram series are replaced by these, which keep the names and the meaning
 * (how late the loop ran a due timer) at a 1 s sample: a stall of any length worth alerting on
 * delays the next sample by that length.
 *
 * The sampler is our own timer rather than `monitorEventLoopDelay`, because resetting that monitor
 * (as each scrape does) also forgets when it last ran, so a stall starting within one sample period
 * after a scrape went unrecorded; at a 1 s period that would hide one stall in fifteen.
 *
 * In the daemon the sample is the clock check's own timer (src/util/clockWatch.ts, `onTick`): how late
 * that once-a-second timer ran is the same figure, and an idle daemon wakes once a second, not twice.
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';
import { CLOCK_CHECK_INTERVAL_MS, type TickSource } from '../util/clockWatch.js';

/** How often the loop is sampled: as often as the clock check runs, whose timer the daemon samples. */
export const EVENT_LOOP_SAMPLE_MS = CLOCK_CHECK_INTERVAL_MS;

/** Resolution handed to prom-client's own monitor, whose series are replaced here: it wakes hourly. */
export const DEFAULT_MONITOR_RESOLUTION_MS = 3_600_000;

type Statistic = 'min' | 'max' | 'mean' | 'stddev' | 'p50' | 'p90' | 'p99';

const NS_PER_S = 1e9;

/** Each series once: how it is read from the histogram of delays (nanoseconds), and its help. */
const STATISTICS: Record<Statistic, { read: (h: RecordableHistogram) => number; help: string }> = {
  min: { read: (h) => h.min, help: 'The minimum recorded event loop delay.' },
  max: { read: (h) => h.max, help: 'The maximum recorded event loop delay.' },
  mean: { read: (h) => h.mean, help: 'The mean of the recorded event loop delays.' },
  stddev: { read: (h) => h.stddev, help: 'The standard deviation of the recorded event loop delays.' },
  p50: { read: (h) => h.percentile(50), help: 'The 50th percentile of the recorded event loop delays.' },
  p90: { read: (h) => h.percentile(90), help: 'The 90th percentile of the recorded event loop delays.' },
  p99: { read: (h) => h.percentile(99), help: 'The 99th percentile of the recorded event loop delays.' },
};

export function eventLoopSeriesName(statistic: Statistic): string {
  return `nodejs_eventloop_lag_${statistic}_seconds`;
}

/** One sample: how much later than due a timer ran (≥ 1 ns: the histogram's floor). */
const record = (histogram: RecordableHistogram, lateMs: number): void => histogram.record(Math.max(1, Math.round(lateMs * 1e6)));

/** Records, once per period, how much later than due the loop ran the sampler. */
function startSampler(histogram: RecordableHistogram, sampleMs: number): void {
  let previous = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    record(histogram, now - previous - sampleMs);
    previous = now;
  }, sampleMs);
  timer.unref();
}

/**
 * Replaces prom-client's histogram series in `registry` (call after `collectDefaultMetrics`) with
 * ones read from the 1 s sampler, or from `ticks` (a timer of period `sampleMs` that reports its
 * lateness) when given. Like prom-client, each scrape reports the samples since the last one (0
 * when there were none).
 */
export function registerEventLoopDelay(registry: Registry, sampleMs = EVENT_LOOP_SAMPLE_MS, ticks?: TickSource): void {
  const histogram = createHistogram();
  if (ticks) ticks((lateMs) => record(histogram, lateMs));
  else startSampler(histogram, sampleMs);
  const statistics = Object.keys(STATISTICS) as Statistic[];
  const last = statistics[statistics.length - 1];
  for (const statistic of statistics) {
    registry.removeSingleMetric(eventLoopSeriesName(statistic));
    new Gauge({
      name: eventLoopSeriesName(statistic),
      help: `${STATISTICS[statistic].help} Sampled every ${sampleMs} ms.`,
      registers: [registry],
      collect() {
        this.set(histogram.count === 0 ? 0 : STATISTICS[statistic].read(histogram) / NS_PER_S);
        // The registry collects in registration order: the last series starts the next interval.
        if (statistic === last) histogram.reset();
      },
    });
  }
}
