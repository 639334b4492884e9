/**
 * The `dateutc` of a station upload, in every form consoles send it: the WU
 * protocol's padded "2026-11-23 13:55:00", Fine Offset / WeatherLink
 * firmware's unpadded "2016-1-4 21:2:35", "+" instead of the space
 * (Ambient's "2018-06-20+13:39:00", or a query string decoded as a path),
 * a body encoded twice ("%20", "%3A" left after decoding), and "now" (the
 * protocol's "use the arrival time", any case). Unix seconds and ISO 8601
 * with an offset are read as elsewhere (../time.ts). Pure: text in, epoch ms
 * out; whether the time is plausible is decided later against the arrival.
 */
import { parseTimestamp } from '../time.js';

/** Date and time with one- or two-digit parts; seconds may be missing. */
const CONSOLE_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?$/;

const pad = (part: string | undefined): string => (part ?? '0').padStart(2, '0');

/** The text once more URL-decoded when it still holds %XX escapes; unchanged when they do not decode. */
function decodedOnce(text: string): string {
  if (!/%[0-9a-f]{2}/i.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Epoch ms of an upload's `dateutc`; undefined when the arrival time counts (absent, empty, "now");
 * `false` when the field is there but is not a time.
 */
export function uploadTime(raw: unknown): number | undefined | false {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') return parseTimestamp(raw, 'UTC') ?? false;
  // "+" only between the date and the time: "+01:00" at the end is an offset.
  const text = decodedOnce(raw.trim())
    .trim()
    .replace(/^(\d{4}-\d{1,2}-\d{1,2})\+/, '$1 ');
  if (text === '' || text.toLowerCase() === 'now') return undefined;
  const parts = CONSOLE_DATE.exec(text);
  if (parts) {
    const [, year, month, day, hour, minute, second] = parts;
    return parseTimestamp(`${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`, 'UTC') ?? false;
  }
  return parseTimestamp(text, 'UTC') ?? false;
}

/** What a refused `dateutc` is told, with the value (cut short) so the owner sees what the console sent. */
export function uploadTimeProblem(raw: unknown): string {
  const shown = typeof raw === 'string' ? raw.slice(0, 40) : typeof raw;
  return `dateutc "${shown}" is not a UTC time ("YYYY-MM-DD HH:MM:SS", parts may be unpadded) or "now"`;
}
