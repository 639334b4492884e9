/** A raw TCP client for HTTP tests that need exact bytes (no Host header, idle connections, connection caps). */
import { connect, type Socket } from 'node:net';
import { waitFor } from './httpTempDir.js';

export interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  readonly closed: Promise<void>;
  isClosed(): boolean;
  /** Sends `text` and waits until `count` complete responses have arrived in total. */
  request(text: string, count?: number, deadlineMs?: number): Promise<string>;
}

/** `localAddress`: the client's own address (e.g. 127.0.0.2, to be another client on loopback). */
export async function openRawClient(port: number, host = '127.0.0.1', localAddress?: string): Promise<RawClient> {
  const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) });
  let received = '';
  let closed = false;
  socket.on('data', (chunk) => (received += String(chunk)));
  socket.on('error', () => undefined);
  const closedPromise = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closed = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => received,
    closed: closedPromise,
    isClosed: () => closed,
    async request(text, count = 1, deadlineMs = 10_000) {
      socket.write(text);
      await waitFor(() => responseCount(received) >= count || closed, deadlineMs);
      return received;
    },
  };
}

/** Status codes of the complete responses in `raw` (Content-Length framed, as this service answers). */
export function responseStatuses(raw: string): number[] {
  const statuses: number[] = [];
  let rest = raw;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) return statuses;
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (Buffer.byteLength(rest.slice(headEnd + 4)) < length) return statuses;
    statuses.push(Number(head.slice(9, 12)));
    rest = rest.slice(headEnd + 4 + length);
  }
}

function responseCount(raw: string): number {
  return responseStatuses(raw).length;
}

/** The body of the last complete response in `raw`. */
export function lastBody(raw: string): string {
  const headEnd = raw.lastIndexOf('\r\n\r\n');
  return headEnd === -1 ? '' : raw.slice(headEnd + 4);
}
