/** A stored lawn memory (JSON from lawn_balances) checked field by field; anything damaged starts afresh. */
import type { LawnMemoryState } from '../core/lawn/memory.js';

const num = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const numOrNull = (value: unknown): value is number | null => value === null || num(value);

export function restoreMemory(raw: unknown): LawnMemoryState | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const blades = r.blades as Record<string, unknown> | null;
  if (typeof blades !== 'object' || blades === null || !num(blades.waterMm) || !numOrNull(blades.drySinceMs)) return undefined;
  if (!numOrNull(r.soilPct) || !num(r.gddTotal) || !numOrNull(r.wetSpellStartMs) || !numOrNull(r.lastCutMs) || !numOrNull(r.atMs))
    return undefined;
  const points = Array.isArray(r.gddCheckpoints)
    ? r.gddCheckpoints.filter((p): p is [number, number] => Array.isArray(p) && num(p[0]) && num(p[1]))
    : [];
  const weather =
    typeof r.weather === 'object' && r.weather !== null && num((r.weather as Record<string, unknown>).temperatureC)
      ? (r.weather as LawnMemoryState['weather'])
      : null;
  return {
    blades: { waterMm: Math.max(0, blades.waterMm), drySinceMs: blades.drySinceMs },
    bladesUnknown: r.bladesUnknown === true, // absent in rows written before gaps were modelled
    soilPct: r.soilPct,
    gddTotal: r.gddTotal,
    gddCheckpoints: points,
    wetSpellStartMs: r.wetSpellStartMs,
    lastCutMs: r.lastCutMs,
    gddAtCut: num(r.gddAtCut) ? r.gddAtCut : null,
    atMs: r.atMs,
    weather,
  };
}
