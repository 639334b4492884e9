/**
 * The row formats of migration 9, pure: a station's latest values and
 * counter baselines as JSON objects in its one `history_stations` row
 * ({"field": [value, atMs]}, {"counterKey": [totalMm, atMs]}), and the
 * bucket key that orders `history_minutes` by (minute, station slot).
 * Changes go to SQLite as JSON merge patches (RFC 7396, SQLite's
 * json_patch), so a commit needs only the changed entries.
 */
import { CURRENT_FIELDS, type CurrentField } from '../ingest/types.js';
import type { CounterRow, LatestRow } from '../history/types.js';
import { BUCKET_SLOT_BITS } from './migrations/009_historyStationRows.js';

const SLOTS = 2 ** BUCKET_SLOT_BITS;
/** Slots a database can number (station ids ever stored); the key's low bits. */
export const MAX_SLOT = SLOTS - 1;

export function bucketKey(minute: number, slot: number): number {
  return minute * SLOTS + slot;
}

export function bucketMinute(key: number): number {
  return Math.floor(key / SLOTS);
}

export function bucketSlot(key: number): number {
  return key - bucketMinute(key) * SLOTS;
}

/** Entries of a JSON object of [number, number] pairs; anything damaged is skipped (it costs one value until the next reading). */
function pairs(text: string): Array<[string, number, number]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, pair]): Array<[string, number, number]> =>
    Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'number' && typeof pair[1] === 'number' && pair.every(Number.isFinite) ? [[key, pair[0], pair[1]]] : [],
  );
}

const FIELDS: ReadonlySet<string> = new Set(CURRENT_FIELDS);

export function decodeLatest(text: string): LatestRow[] {
  return pairs(text).flatMap(([field, value, atMs]) => (FIELDS.has(field) ? [{ field: field as CurrentField, value, atMs }] : []));
}

export function decodeCounters(text: string): CounterRow[] {
  return pairs(text).map(([key, totalMm, atMs]) => ({ key, totalMm, atMs }));
}

export function latestPatch(rows: readonly LatestRow[]): string {
  return JSON.stringify(Object.fromEntries(rows.map((row) => [row.field, [row.value, row.atMs]])));
}

export function countersPatch(rows: readonly CounterRow[]): string {
  return JSON.stringify(Object.fromEntries(rows.map((row) => [row.key, [row.totalMm, row.atMs]])));
}

/** The duplicate filter's recent entries; a damaged value only costs the radio-repeat memory of one restart. */
export function decodeRecent(text: string): Array<[number, number]> {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((pair): pair is [number, number] => Array.isArray(pair) && pair.length === 2 && pair.every(Number.isFinite));
  } catch {
    return [];
  }
}
