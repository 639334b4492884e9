import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MinuteColumns } from '../../src/history/minuteColumns.js';
import type { BucketRow } from '../../src/history/types.js';

/** The Map of objects MinuteColumns replaced, as the model. */
function modelRows(model: Map<number, BucketRow>): BucketRow[] {
  return [...model.values()].sort((a, b) => a.minute - b.minute);
}

function columnRows(columns: MinuteColumns): BucketRow[] {
  const rows: BucketRow[] = [];
  for (let i = columns.first; i < columns.end; i++) rows.push(columns.row(i));
  return rows;
}

const operation = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    minute: fc.integer({ min: 0, max: 3000 }),
    rain: fc.double({ min: 0, max: 10, noNaN: true }),
    temp: fc.option(fc.double({ min: -30, max: 40, noNaN: true })),
    observed: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('prune' as const), minute: fc.integer({ min: 0, max: 3000 }) }),
);

describe('MinuteColumns (typed-array buckets)', () => {
  it('a restored 14-day history keeps its size for days of bookings and prunes instead of doubling', () => {
    const retention = 14 * 1440;
    const columns = MinuteColumns.from(
      Array.from({ length: retention }, (_, minute) => ({ minute, rainMm: 0, rainObserved: false, tempMinC: 10 })),
      retention + 1440,
    );
    const restoredCapacity = columns.capacity;
    // Three days of minutes, pruned to 14 days every 10 minutes as the history does.
    for (let minute = retention; minute < retention + 3 * 1440; minute++) {
      columns.put({ minute, rainMm: 0, rainObserved: false, tempMinC: 10 });
      if (minute % 10 === 0) columns.pruneBefore(minute - retention + 1);
    }
    expect(columns.size).toBeLessThanOrEqual(retention + 10);
    expect(columns.capacity).toBe(restoredCapacity);
    expect(columns.row(columns.end - 1).minute).toBe(retention + 3 * 1440 - 1);
  });

  it('holds the same buckets as a Map of row objects under any order of puts and prunes', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 400 }), (operations) => {
        const columns = new MinuteColumns(1);
        const model = new Map<number, BucketRow>();
        for (const op of operations) {
          if (op.kind === 'put') {
            const row = { minute: op.minute, rainMm: op.rain, rainObserved: op.observed, tempMinC: op.temp };
            columns.put(row);
            model.set(op.minute, row);
          } else {
            columns.pruneBefore(op.minute);
            for (const minute of model.keys()) if (minute < op.minute) model.delete(minute);
          }
          expect(columns.size).toBe(model.size);
        }
        expect(columnRows(columns)).toEqual(modelRows(model));
        for (const minute of [0, 1500, 3000]) expect(columns.indexOf(minute) >= 0).toBe(model.has(minute));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps minutes beyond 32 bits and a missing temperature (null, not 0)', () => {
    const columns = MinuteColumns.from([
      { minute: 2 ** 40, rainMm: 0, rainObserved: false, tempMinC: null },
      { minute: -5, rainMm: 1.5, rainObserved: true, tempMinC: 0 },
    ]);
    expect(columnRows(columns)).toEqual([
      { minute: -5, rainMm: 1.5, rainObserved: true, tempMinC: 0 },
      { minute: 2 ** 40, rainMm: 0, rainObserved: false, tempMinC: null },
    ]);
  });
});
