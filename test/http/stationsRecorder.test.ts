/** The status page's in-memory series: one slot per minute for 14 days, per station. */
import { describe, expect, it } from 'vitest';
import { dewPointMagnusC } from '../../src/core/physics.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';
import { StationsRecorder, type RecordableState, type RecordedSeries } from '../../src/http/stationsRecorder.js';

const T0 = Date.parse('2026-06-15T10:00:00Z');
const minute0 = T0 / MINUTE_MS;

function timed(atMs: number, values: Record<string, number>) {
  return { timeMs: atMs, values, rainCounters: [], fingerprint: String(atMs), dropped: [] };
}

function recorded(recorder: StationsRecorder, station: string, from: number, to: number) {
  const rows: Array<Record<string, number>> = [];
  recorder.forEachMinute(station, from, to, (minute, value) => {
    const row: Record<string, number> = { minute };
    for (const series of ['temperature', 'humidity', 'dew_point', 'index'] as RecordedSeries[]) if (!Number.isNaN(value(series))) row[series] = Math.round(value(series) * 100) / 100;
    rows.push(row);
  });
  return rows;
}

describe('StationsRecorder', () => {
  it('keeps the last reading per minute, derives the dew point, and records the published index at its reading\'s minute', () => {
    let state: RecordableState | undefined;
    const recorder = new StationsRecorder(() => state);
    recorder.onReading('garden', timed(T0, { temperature: 20, humidity: 50 }));
    recorder.onReading('garden', timed(T0 + 30_000, { temperature: 21, humidity: 40, dew_point: 5 }));
    state = { index_score: 77, last_reading_at: new Date(T0 + 30_000).toISOString() };
    recorder.onReading('garden', timed(T0 + 2 * MINUTE_MS, { temperature: 18, humidity: 70 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + 5)).toEqual([
      { minute: minute0, temperature: 21, humidity: 40, dew_point: 5, index: 77 },
      { minute: minute0 + 2, temperature: 18, humidity: 70, dew_point: Math.round(dewPointMagnusC(18, 70) * 100) / 100 },
    ]);
    expect(recorded(recorder, 'other', minute0, minute0 + 5)).toEqual([]);
  });

  it('ignores states without an index and keeps stations apart', () => {
    const states: Record<string, RecordableState> = { a: { index_score: null, last_reading_at: new Date(T0).toISOString() }, b: { index_score: 12, last_reading_at: new Date(T0).toISOString() } };
    const recorder = new StationsRecorder((id) => states[id]);
    recorder.noteState('a');
    recorder.noteState('b');
    recorder.noteState('c');
    expect(recorded(recorder, 'a', minute0, minute0 + 1)).toEqual([]);
    expect(recorded(recorder, 'b', minute0, minute0 + 1)).toEqual([{ minute: minute0, index: 12 }]);
  });

  it('holds 14 days: older minutes are overwritten, a late reading older than the span is dropped', () => {
    const recorder = new StationsRecorder(() => undefined);
    recorder.onReading('garden', timed(T0, { temperature: 10 }));
    recorder.onReading('garden', timed(T0 + RETENTION_MINUTES * MINUTE_MS, { temperature: 30 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + RETENTION_MINUTES + 1)).toEqual([{ minute: minute0 + RETENTION_MINUTES, temperature: 30 }]);
    // This late reading shares its slot with the newest minute: it must not replace it.
    recorder.onReading('garden', timed(T0, { temperature: -5 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + RETENTION_MINUTES + 1)).toEqual([{ minute: minute0 + RETENTION_MINUTES, temperature: 30 }]);
    recorder.onReading('garden', timed(T0 + MINUTE_MS, { humidity: 44 }));
    expect(recorded(recorder, 'garden', minute0, minute0 + RETENTION_MINUTES + 1)).toEqual([
      { minute: minute0 + 1, humidity: 44 },
      { minute: minute0 + RETENTION_MINUTES, temperature: 30 },
    ]);
  });
});
