/**
 * Free text that the CLI prints back (key owner, notes) must not be able to
 * drive the terminal: an ESC sequence can clear the screen, rewrite earlier
 * lines or set the window title, a CR or LF can forge a table row, and
 * Unicode bidirectional overrides reorder what is shown (CVE-2021-42574,
 * "Trojan Source"). Such characters are refused on input and escaped on
 * output, for rows stored before the check or written by other means.
 *
 * The set: C0 controls U+0000-U+001F, DEL U+007F, C1 controls U+0080-U+009F
 * (U+009B is a one-character CSI), the explicit directional formatting
 * characters of Unicode UAX #9 (U+202A-U+202E, U+2066-U+2069) and the
 * LINE/PARAGRAPH SEPARATORs U+2028/U+2029.
 */
import { UsageError } from './io.js';

/* Plain-text tables for the admin CLI: columns padded to their widest cell. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** What JSON.stringify leaves raw (it escapes C0 itself). */
const UNSAFE_BEYOND_C0 = '\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069';
const UNSAFE = new RegExp(`[\\u0000-\\u001F${UNSAFE_BEYOND_C0}]`, 'gu');
const UNSAFE_IN_JSON = new RegExp(`[${UNSAFE_BEYOND_C0}]`, 'gu');

function unicodeEscape(character: string): string {
  return `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `\uXXXX` for each unsafe character: visible, unambiguous, and a valid JSON string escape. */
export function escapeTerminalText(text: string): string {
  return text.replace(UNSAFE, unicodeEscape);
}

/** Throws a usage error (exit 2) when `text` holds a control or bidi character. */
export function assertPrintable(command: string, what: string, text: string): void {
  const found = new RegExp(UNSAFE.source, 'u').exec(text);
  if (found) {
    throw new UsageError(
      command,
      `${what} must not contain control or bidirectional-override characters (found ${codePoint(found[0])} at position ${found.index ?? 0})`,
    );
  }
}

/** JSON for the terminal: the same value after JSON.parse, with every unsafe character as a `\uXXXX` escape. */
export function terminalJson(value: unknown): string {
  // JSON.stringify escapes C0 in strings and its own line breaks must stay; the rest occurs only
  // inside strings, where `\uXXXX` means the same character.
  return JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, unicodeEscape);
}
