/**
 * Reason texts and their one structured form. The HTTP `reasons` (docs/api.md) are German sentences
 * whose key phrase is wrapped in `<b>…</b>`; that markup is written only by `emphasis()` and read
 * only by `reasonSegments()`, so every consumer renders from segments: the HTTP text
 * (`renderSpecReason`, byte for byte what the checks produce), plain text for MQTT and Home
 * Assistant attributes (`renderPlainReason`), and escaped HTML for a status page
 * (`renderHtmlReason`).
 */

/** One run of a reason: plain or emphasised text. */
export interface ReasonSegment {
  readonly text: string;
  readonly emphasis: boolean;
}

const OPEN = '<b>';
const CLOSE = '</b>';

/** Marks the key phrase of a reason (docs/api.md's answer renders it bold). */
export function emphasis(text: string): string {
  return `${OPEN}${text}${CLOSE}`;
}

/** The segments of a reason text; an unmatched `<b>` is kept as plain text. */
export function reasonSegments(reason: string): ReasonSegment[] {
  const segments: ReasonSegment[] = [];
  const push = (text: string, emphasised: boolean): void => {
    if (text !== '') segments.push({ text, emphasis: emphasised });
  };
  let rest = reason;
  for (;;) {
    const open = rest.indexOf(OPEN);
    const close = open < 0 ? -1 : rest.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) break;
    push(rest.slice(0, open), false);
    push(rest.slice(open + OPEN.length, close), true);
    rest = rest.slice(close + CLOSE.length);
  }
  push(rest, false);
  return segments;
}

/** The HTTP answer's format (`reasons`, docs/api.md): emphasis as `<b>…</b>`, everything else as it is. */
export function renderSpecReason(segments: readonly ReasonSegment[]): string {
  return segments.map((segment) => (segment.emphasis ? emphasis(segment.text) : segment.text)).join('');
}

/** Plain text (MQTT state, Home Assistant attributes): the emphasis dropped. */
export function renderPlainReason(segments: readonly ReasonSegment[]): string {
  return segments.map((segment) => segment.text).join('');
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** HTML for a status page: every character escaped, emphasis as `<strong>`. */
export function renderHtmlReason(segments: readonly ReasonSegment[]): string {
  return segments.map((segment) => (segment.emphasis ? `<strong>${escapeHtml(segment.text)}</strong>` : escapeHtml(segment.text))).join('');
}

/** A reason text as plain text (the MQTT state's `reasons`). */
export function plainReason(reason: string): string {
  return renderPlainReason(reasonSegments(reason));
}

/** A reason text as escaped HTML with `<strong>` emphasis. */
export function htmlReason(reason: string): string {
  return renderHtmlReason(reasonSegments(reason));
}
