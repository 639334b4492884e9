/** A URL with its user name and password removed, safe for logs and printed configuration. */
export function redactUrl(url: string): string {
  if (url === '') return url;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
