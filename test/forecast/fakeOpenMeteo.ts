/**
 * A fake Open-Meteo server on loopback (port 0) for tests: serves the recorded-shape
 * fixtures in test/fixtures/openMeteo/, or a scripted failure per request
 * (HTTP errors, 429 with Retry-After, a body that is not JSON, no answer at all),
 * honours If-None-Match with 304, and records every request.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

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
  | { kind: 'hang' };

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

  private constructor() {
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  static async start(): Promise<FakeOpenMeteo> {
    const fake = new FakeOpenMeteo();
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
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
    if (reply.kind === 'status') {
      response.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}) });
      response.end(JSON.stringify({ error: true, reason: `status ${reply.status}` }));
      return;
    }
    if (reply.kind === 'body') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(reply.text);
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
}
