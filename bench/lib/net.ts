/** Loopback helpers: every benchmark talks to 127.0.0.1 only. */
import { createServer } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/**
 * A TCP port that was free a moment ago. Used only where the product needs a
 * port before it starts (child processes); in-process servers listen on port 0.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** GET http://127.0.0.1:<port><path> with a short timeout; resolves with status and parsed JSON (or null). */
export async function getJson(port: number, path: string, timeoutMs = 1000): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://${LOOPBACK}:${port}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body };
}
