import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addKey, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

/** Sends raw bytes, keeps trickling while open, resolves with everything received when the server closes. */
function rawExchange(port: number, head: string, trickle: boolean, giveUpMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let received = '';
    const timer = trickle ? setInterval(() => socket.writable && socket.write(' '), 100) : undefined;
    const done = (text: string) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(text);
    };
    const giveUp = setTimeout(() => done(`(still open) ${received}`), giveUpMs);
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.on('close', () => done(received));
    socket.on('error', () => undefined);
  });
}

describe('request timeout and client errors on a listening server (127.0.0.1)', () => {
  let h: HttpHarness;
  let port: number;
  let key: string;
  beforeEach(async () => {
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_REQUEST_TIMEOUT_MS: '600' } });
    key = (await addKey(h)).key;
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  });
  afterEach(async () => h.close());

  it('answers a body that trickles in slower than the request timeout with 408 and the envelope, then closes', async () => {
    const head = `POST /v1/calculate HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"temperature":`;
    const raw = await rawExchange(port, head, true, 8000);
    expect(raw.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ status: 'error', mfi: null, message: 'Request timeout.' });
    const healthy = await fetch(`http://127.0.0.1:${port}/health`);
    expect(healthy.status).toBe(200);
  });

  it('answers garbage that is not HTTP with 400 and the envelope', async () => {
    const raw = await rawExchange(port, 'HELLO\r\n\r\n', false, 5000);
    expect(raw.startsWith('HTTP/1.1 400 ')).toBe(true);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ status: 'error', mfi: null, message: 'Bad request.' });
  });

  it('answers oversized headers with 431 and the envelope', async () => {
    const raw = await rawExchange(port, `GET /health HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, false, 5000);
    expect(raw.startsWith('HTTP/1.1 431 ')).toBe(true);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).message).toBe('Request header fields too large.');
  });
});
