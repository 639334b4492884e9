/**
 * A fake Open-Meteo server on loopback (port 0) for tests: serves the recorded-shape
 * fixtures in test/fixtures/openMeteo/, or a scripted failure per request
 * (HTTP errors, 429 with Retry-After, a body that is not JSON, no answer at all),
 * hostile bodies (a compression bomb, an endless chunked answer), honours
 * If-None-Match with 304, and records every request.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createDeflate,
  createGzip,
  deflateSync,
  gzipSync,
  type BrotliCompress,
  type Gzip,
} from 'node:zlib';

export type FixtureName = 'dryDay' | 'afternoonThunderstorm' | 'frostyMorning' | 'wetSpell';

export function fixtureText(name: FixtureName): string {
  return readFileSync(join(import.meta.dirname, '..', 'fixtures', 'openMeteo', `${name}.json`), 'utf8');
}

/** The first hour (Unix ms) of a fixture, to set a fake clock by. */
export function fixtureStartMs(name: FixtureName): number {
  return (JSON.parse(fixtureText(name)) as { hourly: { time: number[] } }).hourly.time[0]! * 1000;
}

export type Reply =
  | { kind: 'fixture'; name: FixtureName; etag?: string }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'body'; text: string }
  | { kind: 'hang' }
  /** The request waits until `opened` resolves, then gets the body it resolves to (a forecast that arrives when the test says). */
  | { kind: 'gate'; opened: Promise<string> }
  /** A redirect (302 unless `status` says otherwise) to `location`, as sent. */
  | { kind: 'redirect'; location: string; status?: number }
  /** A compressed body (compressionBomb) sent with its encoding and Content-Length. */
  | { kind: 'bomb'; encoding: Encoding; body: Buffer }
  /** A chunked 200 without Content-Length that never ends: `chunkBytes` of spaces every `everyMs`, optionally compressed. */
  | { kind: 'endless'; chunkBytes: number; everyMs: number; encoding?: Encoding };

export type Encoding = 'gzip' | 'deflate' | 'br';

/** Small windows: the server's own memory (same process as the client under test) stays small. */
const STREAM: Record<Encoding, () => Gzip | BrotliCompress> = {
  gzip: () => createGzip({ windowBits: 9, memLevel: 1 }),
  deflate: () => createDeflate({ windowBits: 9, memLevel: 1 }),
  br: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 10 } }),
};

const COMPRESS: Record<Encoding, (data: Buffer) => Buffer> = {
  gzip: (data) => gzipSync(data, { level: 9 }),
  deflate: (data) => deflateSync(data, { level: 9 }),
  // Quality 4: as small as the default for spaces, ten times faster to make.
  br: (data) => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
};

/** A compression bomb: `decodedBytes` of spaces, compressed (64 MiB are 65 kB as gzip, 102 bytes as br). */
export function compressionBomb(encoding: Encoding, decodedBytes: number): Buffer {
  return COMPRESS[encoding](Buffer.alloc(decodedBytes, ' '));
}

export interface RecordedRequest {
  url: URL;
  headers: IncomingMessage['headers'];
}

export class FakeOpenMeteo {
  readonly requests: RecordedRequest[] = [];
  /** Replies for the next requests, in order; then `fallback`. */
  readonly script: Reply[] = [];
  fallback: Reply = { kind: 'fixture', name: 'dryDay' };
  readonly #server: Server;
  readonly #hanging = new Set<ServerResponse>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Bytes written per endless answer, in order (what the client made the server produce). */
  readonly endlessBytes: number[] = [];
  /** Endless answers whose connection the client closed. */
  endlessClosed = 0;

  readonly #host: string;

  private constructor(host: string) {
    this.#host = host;
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  /** On `host` (any loopback address: 127.0.0.2 is another host than 127.0.0.1) and a free port. */
  static async start(host = '127.0.0.1'): Promise<FakeOpenMeteo> {
    const fake = new FakeOpenMeteo(host);
    await new Promise<void>((resolve) => fake.#server.listen(0, host, resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://${this.#host}:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    for (const response of this.#hanging) response.destroy();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    this.requests.push({ url: new URL(request.url ?? '/', this.baseUrl), headers: request.headers });
    const reply = this.script.shift() ?? this.fallback;
    if (reply.kind === 'hang') {
      this.#hanging.add(response);
      return;
    }
    if (reply.kind === 'bomb') {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': reply.encoding,
        'content-length': reply.body.length,
      });
      response.end(reply.body);
      return;
    }
    if (reply.kind === 'endless') return this.#endless(response, reply);
    if (reply.kind === 'redirect') {
      response.writeHead(reply.status ?? 302, { location: reply.location, 'content-type': 'text/plain' });
      response.end('moved');
      return;
    }
    if (reply.kind === 'status') {
      response.writeHead(reply.status, {
        'content-type': 'application/json',
        ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}),
      });
      response.end(JSON.stringify({ error: true, reason: `status ${reply.status}` }));
      return;
    }
    if (reply.kind === 'body') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(reply.text);
      return;
    }
    if (reply.kind === 'gate') {
      this.#hanging.add(response);
      void reply.opened.then((text) => {
        this.#hanging.delete(response);
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(text);
      });
      return;
    }
    if (reply.etag && request.headers['if-none-match'] === reply.etag) {
      response.writeHead(304, { etag: reply.etag });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', ...(reply.etag ? { etag: reply.etag } : {}) });
    response.end(fixtureText(reply.name));
  }

  #endless(response: ServerResponse, reply: Extract<Reply, { kind: 'endless' }>): void {
    const index = this.endlessBytes.push(0) - 1;
    const chunk = Buffer.alloc(reply.chunkBytes, ' ');
    response.writeHead(200, { 'content-type': 'application/json', ...(reply.encoding ? { 'content-encoding': reply.encoding } : {}) });
    const compressor = reply.encoding ? STREAM[reply.encoding]() : undefined;
    compressor?.pipe(response);
    const sink = compressor ?? response;
    sink.write('{"hourly":"');
    const stop = () => {
      clearInterval(timer);
      this.#timers.delete(timer);
      compressor?.destroy();
    };
    const timer = setInterval(() => {
      if (response.destroyed) return stop();
      sink.write(chunk);
      compressor?.flush();
      this.endlessBytes[index]! += reply.chunkBytes;
    }, reply.everyMs);
    this.#timers.add(timer);
    response.on('close', () => {
      this.endlessClosed++;
      stop();
    });
  }
}
