import { afterEach, describe, expect, it } from 'vitest';
import { calculate } from '../../src/core/index.js';
import { calculationContext } from '../../src/config/calculationContext.js';
import { FIELD_SPECS } from '../../src/core/fields.js';
import { addToMinute, clampToSpecMax, MAX_PENDING_ANOMALIES, MAX_RAIN_PER_MINUTE_MM } from '../../src/history/rainPlausibility.js';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type TimedReading } from '../../src/history/stationHistory.js';
import { MINUTE_MS } from '../../src/history/windows.js';
import { HistoryService } from '../../src/station/historyService.js';
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { mqttTempDir } from '../helpers/mqttHarness.js';

const NOW = Date.parse('2026-06-15T14:00:00Z');
const HOUR_MS = 60 * MINUTE_MS;
const specMax = (name: string) => FIELD_SPECS.find((spec) => spec.name === name)!.max;

/**
 * The attack from the issue: a rain counter flapping between 0 and 50 mm (each
 * rise is one believable 50 mm step) while the station is otherwise fine and
 * reports no rain now. One reading a minute for 25 h; the flapping ran from
 * 11 h to 3 h ago, one rise every 4 minutes: 120 × 50 mm = 6000 mm in 12 h.
 */
function flappingCounterReadings(): TimedReading[] {
  const readings: TimedReading[] = [];
  const start = NOW - 25 * HOUR_MS;
  let rises = 0;
  for (let t = start, i = 0; t <= NOW; t += MINUTE_MS, i++) {
    const flapping = t >= NOW - 11 * HOUR_MS && t < NOW - 3 * HOUR_MS;
    const totalMm = flapping && i % 4 === 0 ? 50 : 0;
    if (totalMm === 50) rises++;
    readings.push({
      timeMs: t,
      values: { temperature: 20, humidity: 55, wind_speed: 6, precipitation_rate: 0 },
      rainCounters: [{ key: 'counter', totalMm }],
      fingerprint: `r${t}`,
      dropped: [],
    });
  }
  expect(rises).toBe(120);
  return readings;
}

describe('rain plausibility (pure)', () => {
  it('caps a one-minute bucket at the world-record one-minute rainfall and reports the excess', () => {
    expect(addToMinute(0, 10)).toEqual({ totalMm: 10, excessMm: 0 });
    expect(addToMinute(30, 50)).toEqual({ totalMm: MAX_RAIN_PER_MINUTE_MM, excessMm: 30 + 50 - MAX_RAIN_PER_MINUTE_MM });
    // A bucket restored above the cap (stored before the cap existed) is not raised further, nor lowered.
    expect(addToMinute(40, 1)).toEqual({ totalMm: 40, excessMm: 1 });
  });

  it('clamps a value above its field maximum to the maximum and leaves valid values alone', () => {
    expect(clampToSpecMax('rain_12h', 6000)).toEqual({ value: specMax('rain_12h'), clamped: true });
    expect(clampToSpecMax('rain_1h', specMax('rain_1h'))).toEqual({ value: specMax('rain_1h'), clamped: false });
    expect(clampToSpecMax('rain_24h', 12.5)).toEqual({ value: 12.5, clamped: false });
  });
});

describe('absurd rain never makes the index better', () => {
  it('a flapping counter worth 6000 mm in 12 h blocks mowing instead of lifting the index to WARNING', () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    for (const reading of flappingCounterReadings()) history.ingest(reading);
    const { input } = history.assemble(NOW);

    // Every window is supplied and within the spec range, so the core uses it.
    for (const field of ['rain_1h', 'rain_12h', 'rain_24h', 'precipitation_rate'] as const) {
      expect(input[field]).toBeDefined();
      expect(input[field]!).toBeLessThanOrEqual(specMax(field));
    }
    expect(input.rain_12h).toBe(specMax('rain_12h'));
    const outcome = calculate(input, calculationContext({ timezone: 'Europe/Berlin' }, NOW));
    if (!outcome.ok) throw new Error(`calculation failed: ${outcome.error.message}`);
    expect(outcome.result.main_status).toBe('BLOCK');

    // A real 100 mm storm in the same place blocks too: the flap is not "better" than it.
    const storm = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    for (const reading of flappingCounterReadings()) {
      const inStorm = reading.timeMs >= NOW - 5 * HOUR_MS && reading.timeMs < NOW - 3 * HOUR_MS;
      storm.ingest({ ...reading, rainCounters: [], rainDeltaMm: inStorm ? 100 / 120 : 0 });
    }
    const stormOutcome = calculate(storm.assemble(NOW).input, calculationContext({ timezone: 'Europe/Berlin' }, NOW));
    if (!stormOutcome.ok) throw new Error('storm calculation failed');
    expect(outcome.result.index_score).toBeLessThanOrEqual(stormOutcome.result.index_score);
  });

  it('records each anomaly for the caller and keeps at most a bounded backlog', () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    for (const reading of flappingCounterReadings()) history.ingest(reading);
    const fromIngest = history.takeAnomalies();
    expect(fromIngest.length).toBe(MAX_PENDING_ANOMALIES);
    expect(fromIngest.every((anomaly) => anomaly.kind === 'minute-capped')).toBe(true);
    history.assemble(NOW);
    expect(history.takeAnomalies().map((anomaly) => anomaly.kind === 'window-clamped' && anomaly.field)).toEqual(['rain_12h', 'rain_24h']);
    expect(history.takeAnomalies()).toEqual([]);
  });
});

describe('rain anomaly log', () => {
  const temp = mqttTempDir();
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    temp.cleanup();
  });

  it('says it once per station and kind, not on every reading and recompute', async () => {
    database = await Database.open(temp.dbPath);
    const capture = captureLogger('info');
    const service = new HistoryService({
      store: new HistoryStore(database),
      stations: [{ id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' }],
      optionsFor: () => DEFAULT_HISTORY_OPTIONS,
      flushIntervalMs: 60_000,
      logger: capture.logger,
      now: () => NOW,
    });
    await service.start();
    for (const reading of flappingCounterReadings()) service.ingest('garden', reading);
    for (let i = 0; i < 5; i++) service.assemble('garden', NOW);
    await service.stop();
    const warnings = capture.lines().filter((line) => line.level === 40 && line.station === 'garden');
    expect(warnings.map((line) => line.field ?? 'minute')).toEqual(['minute', 'rain_12h']);
    expect(String(warnings[0]!.msg)).toMatch(/world record \(31\.2 mm\)/);
    expect(warnings[1]).toMatchObject({ value: expect.any(Number), max: specMax('rain_12h') });
  });
});
