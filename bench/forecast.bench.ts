/**
 * Forecast in-process: the forecast unit's part of a household's readings, 10 stations with a 3-day
 * forecast each (the recorded Open-Meteo fixtures), one reading per 16 s per station for two simulated
 * hours, quiet hours on (night ban at Berlin, noise hours, Sundays). Each reading does what the daemon's
 * forecast unit does for it: the station's detail (rebuilt when the minute, the forecast or the rain
 * state moved on: src/forecast/detailCache.ts), the `rain_expected` hold, and the state's compact
 * forecast serialised as each build writes its state (the text kept per rebuild, or JSON.stringify). Reports CPU per reading and per rebuild. With BENCH_BASELINE_ROOT (a built
 * checkout of an older version: its dist/), the older report and quiet hours run the same readings in
 * interleaved rounds in the same process, and every detail of the first round is compared as JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HOUR_MS, MINUTE_MS, type ForecastHour, type ObservedHistory } from '../src/core/forecastProjection.js';
import { QuietHoursTimeline } from '../src/core/forecastQuietHours.js';
import type { QuietHoursSettings } from '../src/core/lawn/quietHours.js';
import { DetailCache } from '../src/forecast/detailCache.js';
import * as report from '../src/forecast/forecastReport.js';
import * as stateTextModule from '../src/station/stateText.js';
import { parseOpenMeteo } from '../src/openmeteo/openMeteoResponse.js';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { seededRandom } from './lib/inputs.js';
import { measured, atMost, type Figure } from './lib/report.js';
import { median, ratio, round } from './lib/stats.js';

const STATION_COUNT = 10;
const STATION_PACE_MS = 16_000;
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
const START_MS = Date.UTC(2026, 5, 13, 15, 0, 7); // a Saturday afternoon in June: windows, a night and a Sunday ahead
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const QUIET: QuietHoursSettings = {
  night: true,
  marginMinutes: 30,
  noise: { fromMin: 20 * 60, toMin: 7 * 60 },
  sundays: true,
  timeZone: 'Europe/Berlin',
};
const FIXTURES = ['dryDay', 'wetSpell', 'afternoonThunderstorm', 'frostyMorning'];

interface Build {
  buildForecastDetail: typeof report.buildForecastDetail;
  compactForecast: typeof report.compactForecast;
  /** How the build writes a state carrying the compact forecast (src/station/stateText.ts; builds before it: JSON.stringify). */
  stateText: (state: Readonly<Record<string, unknown>>) => string;
  /** Absent in builds before the memo. */
  ForecastMemo?: typeof report.ForecastMemo;
  allowedAt: () => (ms: number) => boolean;
}

function forecastHours(repoRoot: string, name: string): ForecastHour[] {
  const parsed = parseOpenMeteo(JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'openMeteo', `${name}.json`), 'utf8')));
  if (!parsed.ok) throw new Error(parsed.reason);
  const firstEnd = Math.floor(START_MS / HOUR_MS) * HOUR_MS;
  return parsed.hours.map((hour, i) => ({ ...hour, timeMs: firstEnd + i * HOUR_MS }));
}

interface Round {
  cpuMicrosPerReading: number;
  builds: number;
  answers: string[];
}

function runRound(build: Build, forecasts: ForecastHour[][], readings: number, keepAnswers: boolean): Round {
  const random = seededRandom(2026);
  const cache = new DetailCache<report.ForecastDetail>(STATION_COUNT);
  const memos = Array.from({ length: STATION_COUNT }, () => (build.ForecastMemo ? new build.ForecastMemo() : undefined));
  const cached = forecasts.map((hours, i) => ({
    source: 'open-meteo' as const,
    fetchedAtMs: START_MS - i * MINUTE_MS,
    hours,
    validators: {},
  }));
  const allowedAt = build.allowedAt();
  const answers: string[] = [];
  let bytes = 0;
  const cpuStart = process.cpuUsage();
  for (let n = 0; n < readings; n++) {
    const s = n % STATION_COUNT;
    const nowMs = START_MS + Math.floor(n / STATION_COUNT) * STATION_PACE_MS + s * 1000;
    const raining = random() < 0.03;
    const input = {
      temperature: Math.round((14 + 6 * random()) * 10) / 10,
      humidity: Math.round(55 + 30 * random()),
      wind_speed: Math.round(random() * 60) / 10,
      precipitation_rate: raining ? 0.6 : 0,
      rain_1h: raining ? 0.2 : 0,
      rain_24h: 1.2,
      rain_14d: 18,
      min_temp_3h: 12,
      min_temp_3d: 8,
      min_temp_14d: 4,
      minutes_since_rain: 400 + Math.floor((nowMs - START_MS) / MINUTE_MS),
    };
    const observed: ObservedHistory = {
      rainSince: (fromMs) => (fromMs < nowMs - 6 * HOUR_MS ? 18 : 1.2),
      minTempSince: (fromMs) => (fromMs < nowMs - 3 * HOUR_MS ? 4 : 12),
    };
    const detail = cache.get(`s${s}`, { forecast: cached[s], nowMs, input }, () =>
      build.buildForecastDetail({
        source: 'open-meteo',
        cached: cached[s],
        nowMs,
        staleAfterMs: 3 * HOUR_MS,
        minJobMinutes: 90,
        current: input,
        observed,
        context: { nowMs, timeZone: 'Europe/Berlin', hemisphere: 'north', lawn: {} },
        rules: { rainLeadMinutes: 30, allowedAt },
        ...(memos[s] ? { memo: memos[s] } : {}),
      }),
    );
    bytes += build.stateText({ forecast: build.compactForecast(detail, memos[s]) }).length;
    if (keepAnswers) answers.push(JSON.stringify(detail));
  }
  const cpu = process.cpuUsage(cpuStart);
  if (bytes === 0) throw new Error('no state serialised');
  return { cpuMicrosPerReading: (cpu.user + cpu.system) / readings, builds: cache.builds, answers };
}

async function loadBaseline(): Promise<Build | undefined> {
  if (!BASELINE_ROOT) return undefined;
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(BASELINE_ROOT, 'dist', path)).href)) as T;
  const base = await load<typeof report>('forecast/forecastReport.js');
  const quiet = await load<typeof import('../src/core/lawn/quietHours.js')>('core/lawn/quietHours.js');
  const text: Partial<typeof stateTextModule> = await load<typeof stateTextModule>('station/stateText.js').catch(() => ({}));
  return {
    ...base,
    stateText: text.stateText ?? ((state) => JSON.stringify(state)),
    allowedAt: () => (ms) => quiet.quietHoursReason(ms, BERLIN, QUIET) === undefined,
  };
}

export const forecastBenchmark: Benchmark = {
  name: 'forecast',
  title: "Forecast in-process: the forecast unit's part of 10 stations' readings (rebuild per minute, hold, compact state)",
  async run(context: BenchContext): Promise<BenchOutcome> {
    const current: Build = {
      ...report,
      stateText: stateTextModule.stateText,
      allowedAt: () => {
        const timeline = new QuietHoursTimeline(QUIET);
        return (ms) => timeline.allowedAt(ms, BERLIN);
      },
    };
    const baseline = await loadBaseline();
    const forecasts = Array.from({ length: STATION_COUNT }, (_, i) => forecastHours(context.repoRoot, FIXTURES[i % FIXTURES.length]!));
    const readings = (context.quick ? 1 : 2) * 225 * STATION_COUNT; // an hour (two) at a station's pace
    const first = runRound(current, forecasts, readings, baseline !== undefined);
    const baseFirst = baseline ? runRound(baseline, forecasts, readings, true) : undefined;
    const differing = baseFirst ? first.answers.filter((answer, i) => answer !== baseFirst.answers[i]).length : null;
    const rounds: Round[] = [];
    const baseRounds: Round[] = [];
    for (let i = 0; i < 5; i++) {
      rounds.push(runRound(current, forecasts, readings, false));
      if (baseline) baseRounds.push(runRound(baseline, forecasts, readings, false));
    }
    const cpuMicros = median(rounds.map((r) => r.cpuMicrosPerReading));
    const perBuild = (r: Round): number => (r.cpuMicrosPerReading * readings) / r.builds;
    const figures: Figure[] = [
      measured(
        'forecast.cpuMicrosPerReading',
        'forecast CPU per reading (detail, hold, compact state)',
        cpuMicros,
        'µs',
        undefined,
        `rounds ${rounds.map((r) => r.cpuMicrosPerReading.toFixed(0)).join('/')} µs; ${readings} readings, ${first.builds} rebuilds per round`,
      ),
      measured('forecast.cpuMicrosPerBuild', 'forecast CPU per rebuild', median(rounds.map(perBuild)), 'µs'),
    ];
    if (baseline) {
      const baseMicros = median(baseRounds.map((r) => r.cpuMicrosPerReading));
      figures.push(
        measured(
          'forecast.vsBaseline',
          'baseline CPU per reading / CPU per reading',
          ratio(baseMicros, cpuMicros),
          'x',
          undefined,
          `baseline ${baseMicros.toFixed(0)} µs (rounds ${baseRounds.map((r) => r.cpuMicrosPerReading.toFixed(0)).join('/')}); ${BASELINE_ROOT}`,
        ),
        measured(
          'forecast.baselineDifferences',
          'details different from the baseline',
          differing ?? 0,
          'details',
          atMost(0),
          `every reading's detail compared as JSON, ${readings} readings`,
        ),
      );
    }
    return {
      figures,
      details: {
        readings,
        builds: first.builds,
        rounds: rounds.map((r) => round(r.cpuMicrosPerReading, 1)),
        baseRounds: baseRounds.map((r) => round(r.cpuMicrosPerReading, 1)),
        baseline: BASELINE_ROOT ?? null,
      },
    };
  },
};
