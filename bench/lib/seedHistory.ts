/**
 * A database as a Pi holds it after two weeks: 14 days of one-minute buckets
 * (rain observed, some rain, a temperature), a rain counter, the latest
 * values and the duplicate filter's high-water mark for each station,
 * written through the build's own HistoryStore (so whatever schema it has).
 */
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
import type { BucketRow } from '../../src/history/types.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';
import { seededRandom } from './inputs.js';

export async function seedHistory(dbPath: string, stationIds: readonly string[], endMs: number): Promise<void> {
  const database = await Database.open(dbPath);
  try {
    const store = new HistoryStore(database);
    const random = seededRandom(14);
    const lastMinute = Math.floor(endMs / MINUTE_MS);
    for (const station of stationIds) {
      const buckets: BucketRow[] = [];
      for (let minute = lastMinute - RETENTION_MINUTES + 1; minute <= lastMinute; minute++) {
        buckets.push({
          minute,
          rainMm: random() < 0.02 ? 0.3 : 0,
          rainObserved: true,
          tempMinC: Math.round((5 + random() * 20) * 10) / 10,
        });
      }
      await store.save({
        histories: [
          {
            station,
            changes: {
              buckets,
              counters: [{ key: `Fineoffset-WH24/${station}/rain_mm`, totalMm: 123.4, atMs: endMs }],
              latest: [
                { field: 'temperature', value: 12.3, atMs: endMs },
                { field: 'humidity', value: 70, atMs: endMs },
              ],
              duplicates: { highWaterMs: endMs, recent: [] },
            },
          },
        ],
        states: [],
      });
    }
  } finally {
    await database.close();
  }
}
