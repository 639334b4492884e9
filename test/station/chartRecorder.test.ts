/** The status page's chart series: one slot per minute for 14 days, per station, fed by readings and states. */
import { describe, expect, it } from 'vitest';
import { dewPointMagnusC } from '../../src/core/physics.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import { FakeClock, reading, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { useStationFixture } from '../helpers/stationFixture.js';
import { ChartRecorder, type RecordableState, type RecordedSeries } from '../../src/station/chartRecorder.js';

const T0 = Date.parse('2026-06-15T10:00:00Z');
const minute0 = T0 / MINUTE_MS;

function timed(atMs: number, values: Record<string, number>) {
  return { timeMs: atMs, values, rainCounters: [], fingerprint: String(atMs), dropped: [] };
}

function recorded(recorder: ChartRecorder, station: string, from: number, to: number) {
  const rows: Array<Record<string, number>> = [];
  recorder.forEachMinute(station, from, to, (minute, value) => {
    const row: Record<string, number> = { minute };
    for (const series of ['temperature', 'humidity', 'dew_point', 'index'] as RecordedSeries[])
      if (!Number.isNaN(value(series))) row[series] = Math.round(value(series) * 100) / 100;
    rows.push(row);
  });
  return rows;
}

describe('ChartRecorder', () => {
  it("keeps the last reading per minute, derives the dew point, and records each new state's index at its reading's minute", () => {
    const recorder = new ChartRecorder();
    recorder.onReading('garden', timed(T0, { temperature: 20, humidity: 50 }));
    recorder.onReading('garden', timed(T0 + 30_000, { temperature: 21, humidity: 40, dew_point: 5 }));
    recorder.onState('garden', { index_score: 77, last_reading_at: new Date(T0 + 30_000).toISOString() });
    recorder.onReading('garden', timed(T0 + 2 * MINUTE_MS, { temperature: 18, humidity: 70 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + 5)).toEqual([
      { minute: minute0, temperature: 21, humidity: 40, dew_point: 5, index: 77 },
      { minute: minute0 + 2, temperature: 18, humidity: 70, dew_point: Math.round(dewPointMagnusC(18, 70) * 100) / 100 },
    ]);
    expect(recorded(recorder, 'other', minute0, minute0 + 5)).toEqual([]);
  });

  it('ignores states without an index and keeps stations apart', () => {
    const states: Record<string, RecordableState> = {
      a: { index_score: null, last_reading_at: new Date(T0).toISOString() },
      b: { index_score: 12, last_reading_at: new Date(T0).toISOString() },
    };
    const recorder = new ChartRecorder();
    recorder.onState('a', states.a!);
    recorder.onState('b', states.b!);
    expect(recorded(recorder, 'a', minute0, minute0 + 1)).toEqual([]);
    expect(recorded(recorder, 'b', minute0, minute0 + 1)).toEqual([{ minute: minute0, index: 12 }]);
  });

  it('holds 14 days: older minutes are overwritten, a late reading older than the span is dropped', () => {
    const recorder = new ChartRecorder();
    recorder.onReading('garden', timed(T0, { temperature: 10 }));
    recorder.onReading('garden', timed(T0 + RETENTION_MINUTES * MINUTE_MS, { temperature: 30 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + RETENTION_MINUTES + 1)).toEqual([
      { minute: minute0 + RETENTION_MINUTES, temperature: 30 },
    ]);
    // This late reading shares its slot with the newest minute: it must not replace it.
    recorder.onReading('garden', timed(T0, { temperature: -5 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + RETENTION_MINUTES + 1)).toEqual([
      { minute: minute0 + RETENTION_MINUTES, temperature: 30 },
    ]);
    recorder.onReading('garden', timed(T0 + MINUTE_MS, { humidity: 44 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + RETENTION_MINUTES + 1)).toEqual([
      { minute: minute0 + 1, humidity: 44 },
      { minute: minute0 + RETENTION_MINUTES, temperature: 30 },
    ]);
  });
});

describe('ChartRecorder in the pipeline', () => {
  const fixture = useStationFixture();
  const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

  it('is fed each new state once, in the order computed, before the listeners, and holds its index without any read', async () => {
    const clock = new FakeClock(T0);
    const recorder = new ChartRecorder();
    const seen: string[] = [];
    const probe: StationUnit = { name: 'probe', onState: (stationId, state) => seen.push(`unit ${stationId} ${state.last_reading_at}`) };
    const config = testMqttConfig({
      stations: [garden],
      broker: { enabled: false },
      mqtt: { url: '' },
      station: { recomputeDebounceMs: 0 },
    });
    const side = await fixture.sides(config, clock, [recorder, probe]);
    side.pipeline.onState((station, state) => seen.push(`listener ${station.id} ${state.last_reading_at}`));
    await side.start();
    const expected: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(MINUTE_MS);
      expect(
        side.acceptReading('garden', reading({ temperature: 15 + i, humidity: 60, wind_speed: 4, precipitation_rate: 0 }, 0), 'test'),
      ).toBe('accepted');
      await waitUntil(
        () => side.stationState('garden')?.last_reading_at === new Date(clock.now()).toISOString(),
        `the state of reading ${i}`,
      );
      const at = new Date(clock.now()).toISOString();
      expected.push(`unit garden ${at}`, `listener garden ${at}`);
    }
    expect(seen).toEqual(expected);
    // The last state's index is in the series at its reading's minute, before anything reads the state.
    const last = side.stationState('garden')!;
    expect(typeof last.index_score).toBe('number');
    const lastMinute = Date.parse(last.last_reading_at!) / MINUTE_MS;
    expect(recorded(recorder, 'garden', lastMinute, lastMinute + 1)).toMatchObject([
      { minute: lastMinute, temperature: 17, index: Math.round(last.index_score! * 100) / 100 },
    ]);
  });

  it('records a state that arrives after the next reading began a new slot', () => {
    const recorder = new ChartRecorder();
    const slotStart = Math.ceil(minute0 / 10) * 10;
    recorder.onReading('garden', timed((slotStart + 9) * MINUTE_MS, { temperature: 10 }));
    recorder.onReading('garden', timed((slotStart + 10) * MINUTE_MS, { temperature: 11 }));
    recorder.onState('garden', { index_score: 64, last_reading_at: new Date((slotStart + 9) * MINUTE_MS).toISOString() });
    expect(recorded(recorder, 'garden', slotStart, slotStart + 20)).toEqual([
      { minute: slotStart + 9, temperature: 10, index: 64 },
      { minute: slotStart + 10, temperature: 11 },
    ]);
  });
});
