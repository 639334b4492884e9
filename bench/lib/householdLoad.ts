/**
 * What a household puts on the daemon in a day, driven at its real pace: stations reporting every
 * 16 s (rtl_433 events through the embedded broker, each stamped with the time it is sent), one
 * open status page polling as public/assets/app.js does, and a REST client calling /v1/calculate
 * once a minute. Plus a loopback stand-in for Open-Meteo that serves a recorded 3-day forecast
 * shifted to start at the current hour, so the daemon's forecast is never stale.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { HTTP_BENCH_BODY } from './inputs.js';
import { LOOPBACK } from './net.js';
import { rtl433Readings, STATION_INTERVAL_MS } from './rtl433.js';
import { sleep } from './time.js';

/** The page's poll interval (public/assets/app.js POLL_MS default) and its history refresh (4 polls). */
export const PAGE_POLL_MS = 15_000;
const PAGE_HISTORY_EVERY = 4;
export const REST_CALL_MS = 60_000;

export interface LoadCounts {
  readings: number;
  httpRequests: number;
  httpFailures: number;
  /** When present, failed requests counted by status code or error message. */
  failureReasons?: Record<string, number>;
}

function countFailure(counts: LoadCounts, reason: string): void {
  counts.httpFailures++;
  if (counts.failureReasons) counts.failureReasons[reason] = (counts.failureReasons[reason] ?? 0) + 1;
}

/**
 * Publishes one reading per station every 16 s until `signal` aborts or `durationMs` worth of
 * readings are sent, each stamped with the time it is sent (as a station does). One coherent stream
 * (slowly drifting values, a rising rain counter). Returns how many were published.
 */
export async function publishAtStationPace(
  client: MqttClient,
  stationCount: number,
  durationMs: number,
  signal: AbortSignal,
): Promise<number> {
  const stream = rtl433Readings(stationCount, Math.ceil(durationMs / STATION_INTERVAL_MS) + 1, Date.now());
  const slotMs = STATION_INTERVAL_MS / stationCount;
  let published = 0;
  for (const event of stream) {
    if (signal.aborted) break;
    const payload = JSON.parse(event.payload) as Record<string, unknown>;
    payload.time = new Date().toISOString().slice(0, 19).replace('T', ' ');
    await client.publishAsync(event.topic, JSON.stringify(payload), { qos: 1 });
    published++;
    await sleep(slotMs);
  }
  return published;
}

async function request(port: number, path: string, init: RequestInit, counts: LoadCounts): Promise<void> {
  counts.httpRequests++;
  try {
    const response = await fetch(`http://${LOOPBACK}:${port}${path}`, init);
    await response.arrayBuffer();
    if (!response.ok) countFailure(counts, `${path.split('?')[0]}: ${response.status}`);
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    countFailure(counts, `${path.split('?')[0]}: ${err instanceof Error ? err.message : String(err)}${cause}`);
  }
}

/** The status page of `stationId`: list and detail every poll, the 48 h history every fourth. */
export async function pollStatusPage(
  port: number,
  stationId: string,
  signal: AbortSignal,
  counts: LoadCounts,
  pollMs = PAGE_POLL_MS,
): Promise<void> {
  const init: RequestInit = { headers: { accept: 'application/json', 'cache-control': 'no-store' } };
  for (let poll = 0; !signal.aborted; poll++) {
    await Promise.all([request(port, '/v1/stations', init, counts), request(port, `/v1/stations/${stationId}`, init, counts)]);
    if (poll % PAGE_HISTORY_EVERY === 0) await request(port, `/v1/stations/${stationId}/history?hours=48&step=10m`, init, counts);
    await sleep(pollMs);
  }
}

/** A home automation asking /v1/calculate once a minute. */
export async function callCalculate(
  port: number,
  apiKey: string,
  signal: AbortSignal,
  counts: LoadCounts,
  everyMs = REST_CALL_MS,
): Promise<void> {
  const init: RequestInit = {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: HTTP_BENCH_BODY,
  };
  while (!signal.aborted) {
    await request(port, '/v1/calculate', init, counts);
    await sleep(everyMs);
  }
}

export interface FakeForecast {
  baseUrl: string;
  requests: number;
  close(): Promise<void>;
}

/** Serves the recorded dry-day forecast with its hours moved to start one hour before now (the daemon's now: `now` under an accelerated clock). */
export async function startFakeForecast(repoRoot: string, now: () => number = Date.now): Promise<FakeForecast> {
  const recorded = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'openMeteo', 'dryDay.json'), 'utf8')) as {
    hourly: { time: number[] };
  };
  let requests = 0;
  const server: Server = createServer((_request, response) => {
    requests++;
    const firstHourS = Math.floor(now() / 3_600_000) * 3600 - 3600;
    const body = { ...recorded, hourly: { ...recorded.hourly, time: recorded.hourly.time.map((_, index) => firstHourS + index * 3600) } };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  return {
    baseUrl: `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
