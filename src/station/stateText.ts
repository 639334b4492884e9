/**
 * The retained state's JSON text, with the parts that many states share serialised once
 * (bench/NOTES.md, "State per reading"). A station unit's fragment that stays the same object from
 * state to state until the unit rebuilds it (the forecast's compact view: 48 hours, rebuilt at most
 * once a minute, carried by every reading's state) is marked with `fixedJson()`; `stateText()` then
 * splices the kept text into the state's text instead of stringifying the part on every reading.
 * The text equals `JSON.stringify(state)` byte for byte (test/station/stateText.test.ts). It pays: the
 * compact forecast is 4.9 KB, ~45 µs of JSON.stringify per reading (bench/NOTES.md, "State per reading").
 */

interface Fixed {
  text: string;
  /** No `<` anywhere in the text: no string inside carries markup the state's plain-text pass would change. */
  plain: boolean;
}

/** Where a marked value carries its kept text: a non-enumerable symbol member, so JSON, spreads and equality never see it. */
const FIXED = Symbol('kept JSON text');

const fixedOf = (value: unknown): Fixed | undefined =>
  typeof value === 'object' && value !== null ? (value as { [FIXED]?: Fixed })[FIXED] : undefined;

/**
 * Marks `value` as never changed from now on and serialises it once. Returns the same value. A
 * value changed after this would be published as it was when marked: only for parts built anew
 * rather than edited. `text`: its JSON text when the caller assembled it from texts it keeps (it
 * must equal `JSON.stringify(value)`).
 */
export function fixedJson<T extends object>(value: T, text?: string): T {
  // A value with its own toJSON is asked with its key by JSON.stringify: not kept; nor a frozen one (it cannot carry the text).
  if (fixedOf(value) === undefined && typeof (value as { toJSON?: unknown }).toJSON !== 'function' && Object.isExtensible(value)) {
    const json = text ?? JSON.stringify(value);
    Object.defineProperty(value, FIXED, { value: { text: json, plain: !json.includes('<') } satisfies Fixed, enumerable: false });
  }
  return value;
}

/** True when `value` was marked by fixedJson() and no string in it contains `<` (the state's plain-text pass can skip it). */
export function isFixedPlain(value: unknown): boolean {
  return fixedOf(value)?.plain === true;
}

const fixedText = (value: unknown): string | undefined => fixedOf(value)?.text;

/** Appends an object's JSON text without its braces to `out` (nothing for `{}`: every value was left out). */
function appendMembers(out: string, text: string): string {
  if (text.length <= 2) return out;
  return out.length > 1 ? `${out},${text.slice(1, -1)}` : `${out}${text.slice(1, -1)}`;
}

/**
 * `JSON.stringify(state)`, splicing in the kept text of every top-level value marked by
 * fixedJson(). The other members are serialised by one `JSON.stringify` per run of them, in the
 * state's own key order, so what it leaves out (undefined, functions) and how it escapes stay its own.
 */
export function stateText(state: object): string {
  return membersText(state as Readonly<Record<string, unknown>>);
}

/**
 * The kept texts' length below which one `JSON.stringify` of the whole state is cheaper than the
 * splice: the splice serialises the other members in runs copied into new objects, about 10 µs of
 * overhead for a 4 KB state; stringifying a kept text again costs ~8–10 µs per KB. Measured in
 * process on a 4 KB state with one marked member (bench/NOTES.md, "The reading's own work at a
 * station's pace"): at 0.1 / 0.6 / 1.3 / 2.5 / 5 KB the splice took 1.38 / 1.10 / 1.01 / 0.96 / 0.63×
 * the time of `JSON.stringify(state)`. The HA controls (~0.5 KB) go the plain way, a forecast
 * (4.9 KB) is spliced. Both ways give the same bytes.
 */
export const SPLICE_MIN_CHARS = 2048;

function membersText(state: Readonly<Record<string, unknown>>): string {
  let kept = 0;
  for (const key in state) kept += fixedText(state[key])?.length ?? 0;
  if (kept < SPLICE_MIN_CHARS || typeof state.toJSON === 'function') return JSON.stringify(state);
  let out = '{';
  let run: Record<string, unknown> = {};
  let runLength = 0;
  for (const key of Object.keys(state)) {
    // An own "__proto__" member cannot be copied by assignment: the plain path keeps it.
    if (key === '__proto__') return JSON.stringify(state);
    const value = state[key];
    const text = fixedText(value);
    if (text === undefined) {
      run[key] = value;
      runLength++;
      continue;
    }
    if (runLength > 0) out = appendMembers(out, JSON.stringify(run));
    run = {};
    runLength = 0;
    out = `${out.length > 1 ? `${out},` : out}${JSON.stringify(key)}:${text}`;
  }
  if (runLength > 0) out = appendMembers(out, JSON.stringify(run));
  return `${out}}`;
}
