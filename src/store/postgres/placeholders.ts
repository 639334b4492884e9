/**
 * The stores write `?` placeholders (SQLite's); PostgreSQL numbers them
 * (`$1`, `$2`, ...). A `?` inside a quoted string, a quoted identifier or a
 * comment is text, not a placeholder. Pure.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const end = skipQuotedOrComment(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else {
      out += ch === '?' ? `$${++n}` : ch;
      i++;
    }
  }
  return out;
}

/** The index after a quoted string, quoted identifier or comment starting at `i`; `i` when none starts there. */
function skipQuotedOrComment(sql: string, i: number): number {
  const ch = sql[i];
  if (ch === "'" || ch === '"') {
    const close = sql.indexOf(ch, i + 1);
    return close === -1 ? sql.length : close + 1;
  }
  if (ch === '-' && sql[i + 1] === '-') {
    const close = sql.indexOf('\n', i);
    return close === -1 ? sql.length : close;
  }
  if (ch === '/' && sql[i + 1] === '*') {
    const close = sql.indexOf('*/', i + 2);
    return close === -1 ? sql.length : close + 2;
  }
  return i;
}
