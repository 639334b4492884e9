/** Quotes `text` for a POSIX shell when needed, for commands we print for the user to copy. */
export function shellQuote(text: string): string {
  return /^[\w./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
