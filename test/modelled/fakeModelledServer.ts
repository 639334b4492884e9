/**
 * A fake Open-Meteo for modelled stations, on loopback (port 0): answers /v1/forecast in the shape
 * Open-Meteo sends (recorded from api.open-meteo.com with `timeformat=unixtime`: latitude,
 * generationtime_ms, current_units/current, hourly_units/hourly), built for the request's
 * `past_days`/`past_hours` against a test clock, so the backfill, the current conditions and the
 * forecast hours are whatever the clock says. Scripted replies stand in for the provider's bad
 * days: hourly only, missing variables, nulls at the edges, 429 with Retry-After, 5xx, no answer,
 * an oversize body, a gzip-compressed body, any text. Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach } from 'vitest';
import type { StationPipeline } from '../../src/station/pipeline.js';
import type { Database } from '../../src/store/database.js';
import { mqttTempDir } from '../helpers/mqttHarness.js';

const HOUR_S = 3600;

export type Reply =
  | { kind: 'ok' }
  | { kind: 'hourlyOnly' }
  | { kind: 'missing'; variables: string[] }
  | { kind: 'edgeNulls'; hours: number }
  /** A current temperature of 95 °C and a relative humidity of 140 % in the last past hour. */
  | { kind: 'outOfRange' }
  | { kind: 'gzip' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'body'; text: string }
  | { kind: 'oversize'; bytes: number }
  | { kind: 'hang' };

/** The weather of an hour (Unix seconds): rain of 0.8 mm in the hour before 03:00 UTC each day, dry otherwise. */
export function rainAt(seconds: number): number {
  return new Date(seconds * 1000).getUTCHours() === 3 ? 0.8 : 0;
}

function weatherAt(seconds: number): Record<string, number> {
  const hour = new Date(seconds * 1000).getUTCHours();
  const warm = Math.sin(((hour - 9) / 24) * 2 * Math.PI);
  return {
    temperature_2m: 16 + 6 * warm,
    relative_humidity_2m: 60 - 15 * warm,
    dew_point_2m: 8,
    wind_speed_10m: 9,
    wind_gusts_10m: 21,
    shortwave_radiation: Math.max(0, 600 * warm),
    soil_temperature_6cm: 15,
    soil_moisture_3_to_9cm: 0.24,
    precipitation: rainAt(seconds),
    precipitation_probability: 10,
  };
}

export interface RecordedRequest {
  url: URL;
  headers: IncomingMessage['headers'];
}

export class FakeModelledServer {
  readonly requests: RecordedRequest[] = [];
  readonly script: Reply[] = [];
  fallback: Reply = { kind: 'ok' };
  readonly #server: Server;
  readonly #now: () => number;
  readonly #hanging = new Set<ServerResponse>();

  private constructor(now: () => number) {
    this.#now = now;
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  static async start(now: () => number): Promise<FakeModelledServer> {
    const fake = new FakeModelledServer(now);
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

  /** The answer Open-Meteo would send for `url` at the clock's time. */
  answer(url: URL, reply: Reply = { kind: 'ok' }): Record<string, unknown> {
    const nowS = Math.floor(this.#now() / 1000);
    const hourNow = nowS - (nowS % HOUR_S);
    const pastHours = url.searchParams.has('past_days')
      ? Number(url.searchParams.get('past_days')) * 24 + new Date(hourNow * 1000).getUTCHours()
      : Number(url.searchParams.get('past_hours') ?? 0);
    const forecastHours = Number(url.searchParams.get('forecast_days') ?? 7) * 24 - new Date(hourNow * 1000).getUTCHours();
    const times = Array.from({ length: pastHours + forecastHours }, (_, i) => hourNow + (i - pastHours) * HOUR_S);
    const hourlyNames = (url.searchParams.get('hourly') ?? '')
      .split(',')
      .filter((name) => !(reply.kind === 'missing' && reply.variables.includes(name)));
    const hourly: Record<string, unknown[]> = { time: times };
    for (const name of hourlyNames) hourly[name] = times.map((time) => weatherAt(time)[name] ?? null);
    if (reply.kind === 'edgeNulls') {
      for (const name of hourlyNames)
        for (const index of [0, ...Array.from({ length: reply.hours }, (_, i) => pastHours - i)]) hourly[name]![index] = null;
    }
    const body: Record<string, unknown> = {
      latitude: Number(url.searchParams.get('latitude')),
      longitude: Number(url.searchParams.get('longitude')),
      generationtime_ms: 0.62,
      utc_offset_seconds: 0,
      timezone: 'GMT',
      timezone_abbreviation: 'GMT',
      elevation: 38,
      hourly_units: Object.fromEntries(hourlyNames.map((name) => [name, name.includes('moisture') ? 'm³/m³' : ''])),
      hourly,
    };
    if (reply.kind === 'outOfRange' && hourly.relative_humidity_2m) hourly.relative_humidity_2m[pastHours] = 140;
    const currentNames = (url.searchParams.get('current') ?? '')
      .split(',')
      .filter((name) => name !== '' && !(reply.kind === 'missing' && reply.variables.includes(name)));
    if (currentNames.length > 0 && reply.kind !== 'hourlyOnly') {
      const currentS = nowS - (nowS % 900);
      body.current_units = { time: 'unixtime', interval: 'seconds' };
      body.current = {
        time: currentS,
        interval: 900,
        ...Object.fromEntries(
          currentNames.map((name) => [name, name === 'precipitation' ? rainAt(hourNow) / 4 : (weatherAt(currentS)[name] ?? null)]),
        ),
      };
      if (reply.kind === 'outOfRange') (body.current as Record<string, number>).temperature_2m = 95;
    }
    return body;
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.baseUrl);
    this.requests.push({ url, headers: request.headers });
    const reply = this.script.shift() ?? this.fallback;
    switch (reply.kind) {
      case 'hang':
        this.#hanging.add(response);
        return;
      case 'status':
        response.writeHead(reply.status, {
          'content-type': 'application/json',
          ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}),
        });
        response.end(JSON.stringify({ error: true, reason: `status ${reply.status}` }));
        return;
      case 'body':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(reply.text);
        return;
      case 'oversize':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"hourly": {"time": [], "pad": "${'x'.repeat(reply.bytes)}"}}`);
        return;
      case 'gzip':
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(JSON.stringify(this.answer(url))));
        return;
      default:
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(this.answer(url, reply)));
    }
  }
}

/**
 * The per-test set-up of the modelled tests: a temp directory and a fresh fake Open-Meteo for each
 * test of the calling describe block, the clock back at `startMs`. Call it before the block's own
 * afterEach: vitest runs after-hooks last first, so what a test started stops before the fake closes
 * and the directory goes.
 */
export function useFakeOpenMeteo(
  clock: { ms: number; now(): number },
  startMs: number,
): {
  readonly temp: { dir: string; dbPath: string };
  readonly fake: FakeModelledServer;
} {
  let temp: ReturnType<typeof mqttTempDir> | undefined;
  let fake: FakeModelledServer | undefined;
  beforeEach(async () => {
    temp = mqttTempDir();
    clock.ms = startMs;
    fake = await FakeModelledServer.start(() => clock.now());
  });
  afterEach(async () => {
    await fake?.close();
    temp?.cleanup();
    fake = temp = undefined;
  });
  const inTest = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useFakeOpenMeteo: only inside a test');
    return value;
  };
  return {
    get temp() {
      return inTest(temp);
    },
    get fake() {
      return inTest(fake);
    },
  };
}

/** A station pipeline (and its database) a test opens on the fake's temp database: stopped and closed after each test. */
export interface PipelineSlot {
  pipeline: StationPipeline | undefined;
  database: Database | undefined;
}

/** useFakeOpenMeteo plus the slot for the pipeline a test builds on it, emptied after each test (pipeline first). */
export function usePipelineOnFakeOpenMeteo(
  clock: { ms: number; now(): number },
  startMs: number,
): ReturnType<typeof useFakeOpenMeteo> & { readonly slot: PipelineSlot } {
  const openMeteo = useFakeOpenMeteo(clock, startMs);
  const slot: PipelineSlot = { pipeline: undefined, database: undefined };
  afterEach(async () => {
    await slot.pipeline?.stop();
    await slot.database?.close();
    slot.pipeline = slot.database = undefined;
  });
  return {
    get temp() {
      return openMeteo.temp;
    },
    get fake() {
      return openMeteo.fake;
    },
    slot,
  };
}
