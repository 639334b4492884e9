/**
 * The `<base>/<station>/mowed` command payload: empty, `now`, an ISO 8601 time, Unix seconds or
 * milliseconds, or a JSON object `{"at": <one of those>, "source": "..."}`. Pure.
 */
export const MAX_MOWED_PAYLOAD_BYTES = 256;
/** A reported cut may lie this far in the future (clock skew); further is refused. */
export const MAX_CUT_FUTURE_MS = 5 * 60_000;
/** Cuts older than this are refused: the growth since then is no longer known (the history keeps 14 days). */
export const MAX_CUT_AGE_MS = 14 * 86_400_000;

export type MowedReport = { ok: true; atMs: number | null; source: string | null } | { ok: false; reason: string };

function parseTime(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === '' || value === 'now') return null;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()))) {
    const n = Number(value);
    if (!Number.isFinite(n)) return undefined;
    return n < 1e11 ? Math.round(n * 1000) : Math.round(n);
  }
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value.trim()) || !/(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim()))
    return undefined;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

const EXPECTED = 'expected empty, "now", an ISO 8601 time with offset, Unix seconds/ms, or {"at": ..., "source": "..."}';

/** Parses a payload; `atMs` null means "now". */
export function parseMowedPayload(text: string): MowedReport {
  const trimmed = text.trim();
  let at: unknown = trimmed;
  let source: string | null = null;
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return { ok: false, reason: `not JSON; ${EXPECTED}` };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, reason: EXPECTED };
    const record = parsed as Record<string, unknown>;
    at = Object.hasOwn(record, 'at') ? record.at : null;
    if (Object.hasOwn(record, 'source')) {
      if (typeof record.source !== 'string' || !/^[\w .:-]{1,40}$/.test(record.source))
        return { ok: false, reason: '"source" must be up to 40 letters, digits, spaces or ._:-' };
      source = record.source;
    }
  }
  const atMs = parseTime(typeof at === 'string' ? (at.trim().toLowerCase() === 'now' ? 'now' : at) : at);
  if (atMs === undefined) return { ok: false, reason: EXPECTED };
  return { ok: true, atMs, source };
}

/** Why a cut time is not believable at `nowMs`, or null. */
export function cutTimeProblem(atMs: number, nowMs: number): string | null {
  if (atMs > nowMs + MAX_CUT_FUTURE_MS) return 'the time is in the future';
  if (atMs < nowMs - MAX_CUT_AGE_MS) return 'the time is more than 14 days ago';
  return null;
}
