/**
 * Fetches one station's forecast from Open-Meteo (or a self-hosted instance)
 * with Node's fetch: a timeout per attempt, retries with exponential back-off
 * on network errors, timeouts, 429 and 5xx (Retry-After honoured up to the
 * back-off cap), and conditional requests (If-None-Match / If-Modified-Since)
 * when the server sent an ETag or Last-Modified. The body is read with a
 * bound on its decoded bytes (../util/boundedBody.ts): a gzip bomb or an
 * endless chunked answer ends the attempt at MAX_RESPONSE_BYTES, not at the
 * timeout. Redirects are followed only on the configured host (./redirects.ts): an answer
 * from another host is never used. Never throws: every failure is a result with a reason for
 * the log and the provider's status.
 */
import type { ForecastHour } from '../core/forecastProjection.js';
import type { StationLocation } from '../ingest/types.js';
import type { Validators } from '../store/forecastStore.js';
import { BodyTooLargeError, readBoundedText } from '../util/boundedBody.js';
import { openMeteoUrl, parseOpenMeteo } from './openMeteoResponse.js';
import { MAX_REDIRECTS, redirectTarget } from './redirects.js';

/**
 * Largest response body read, counted after decoding (gzip, deflate, br) while it streams in, with or
 * without Content-Length; the read stops there (a 3-day hourly forecast is about 10 kB).
 */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Longest wait between two attempts, Retry-After included. */
export const MAX_BACKOFF_MS = 60_000;

/**
 * A failed request; `problem` `redirectRefused`: the server redirected where the client does not
 * follow (./redirects.ts), a setting to fix (forecast.openMeteoUrl) rather than a passing outage.
 */
export type FetchError = { kind: 'error'; reason: string; problem?: 'redirectRefused' };

export type FetchOutcome = { kind: 'ok'; hours: ForecastHour[]; validators: Validators } | { kind: 'not_modified' } | FetchError;

/** The outcome of a request whose body `parse` turned into a T (a modelled station's readings, src/modelled/). */
export type ParsedOutcome<T> = { kind: 'ok'; value: T; validators: Validators } | { kind: 'not_modified' } | FetchError;
export type BodyParser<T> = (body: unknown) => { ok: true; value: T } | { ok: false; reason: string };

const parseForecastBody: BodyParser<ForecastHour[]> = (body) => {
  const parsed = parseOpenMeteo(body);
  return parsed.ok ? { ok: true, value: parsed.hours } : parsed;
};

export interface OpenMeteoClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Attempts after the first one. */
  retries: number;
  /** First back-off; doubles per attempt. */
  backoffMs: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  userAgent: string;
  /** Defaults to MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
}

const RETRYABLE = (status: number): boolean => status === 429 || status >= 500;

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The `forecast.*` connection settings every unit that asks Open-Meteo uses (src/forecast/forecastSettings.ts). */
export interface OpenMeteoConnection {
  openMeteoUrl: string;
  timeoutSeconds: number;
  retries: number;
}

/** What a unit adds to the connection: its User-Agent, its first retry back-off, and (tests) a fake fetch. */
export interface OpenMeteoCaller {
  userAgent: string;
  fetch?: typeof fetch;
}

/** A unit's client: the forecast's, a modelled station's and gap filling's are made the same way. */
export function connectOpenMeteo(connection: OpenMeteoConnection, caller: OpenMeteoCaller, backoffMs: number): OpenMeteoClient {
  return new OpenMeteoClient({
    baseUrl: connection.openMeteoUrl,
    timeoutMs: connection.timeoutSeconds * 1000,
    retries: connection.retries,
    backoffMs,
    userAgent: caller.userAgent,
    ...(caller.fetch ? { fetch: caller.fetch } : {}),
  });
}

export class OpenMeteoClient {
  readonly #options: OpenMeteoClientOptions;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: OpenMeteoClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()));
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  async fetchForecast(location: StationLocation, validators: Validators = {}, signal?: AbortSignal): Promise<FetchOutcome> {
    const outcome = await this.fetchParsed(openMeteoUrl(this.#options.baseUrl, location), parseForecastBody, validators, signal);
    return outcome.kind === 'ok' ? { kind: 'ok', hours: outcome.value, validators: outcome.validators } : outcome;
  }

  /** Any Open-Meteo URL, with the same timeout, retries, size bound and conditional request; `parse` judges the body. */
  async fetchParsed<T>(url: string, parse: BodyParser<T>, validators: Validators = {}, signal?: AbortSignal): Promise<ParsedOutcome<T>> {
    let last: ParsedOutcome<T> = { kind: 'error', reason: 'no attempt made' };
    for (let attempt = 0; attempt <= this.#options.retries; attempt++) {
      if (signal?.aborted) return { kind: 'error', reason: 'stopped' };
      const { outcome, retryInMs } = await this.#attempt(url, parse, validators, signal);
      if (retryInMs === undefined) return outcome;
      last = outcome;
      if (attempt < this.#options.retries)
        await this.#sleep(Math.min(MAX_BACKOFF_MS, Math.max(retryInMs, this.#options.backoffMs * 2 ** attempt)));
    }
    return last;
  }

  async #attempt<T>(
    url: string,
    parse: BodyParser<T>,
    validators: Validators,
    signal?: AbortSignal,
  ): Promise<{ outcome: ParsedOutcome<T>; retryInMs?: number }> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#options.userAgent };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    let response: Response;
    let text: string;
    try {
      const followed = await this.#fetchFollowingSameHost(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      if ('refused' in followed) return { outcome: { kind: 'error', reason: followed.refused, problem: 'redirectRefused' } };
      response = followed.response;
      if (response.status === 304) return { outcome: { kind: 'not_modified' } };
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const reason = `HTTP ${response.status}${response.status === 429 ? ' (rate limited)' : ''}`;
        return {
          outcome: { kind: 'error', reason },
          ...(RETRYABLE(response.status) ? { retryInMs: retryAfterMs(response.headers.get('retry-after')) ?? 0 } : {}),
        };
      }
      text = await readBoundedText(response, this.#options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
    } catch (err) {
      // The same server would send the same body again: not retried.
      if (err instanceof BodyTooLargeError) return { outcome: { kind: 'error', reason: err.message } };
      const reason = timeout.aborted
        ? `no answer within ${this.#options.timeoutMs} ms`
        : `request failed: ${err instanceof Error ? err.message : String(err)}`;
      return { outcome: { kind: 'error', reason }, retryInMs: 0 };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { outcome: { kind: 'error', reason: 'the response is not valid JSON' } };
    }
    const parsed = parse(body);
    if (!parsed.ok) return { outcome: { kind: 'error', reason: parsed.reason } };
    const etag = response.headers.get('etag');
    const lastModified = response.headers.get('last-modified');
    return {
      outcome: { kind: 'ok', value: parsed.value, validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) } },
    };
  }

  /**
   * Fetches `url`, following a redirect only to the same host (./redirects.ts); a refused redirect is
   * not retried (the server would send it again) and its reason names what was refused.
   */
  async #fetchFollowingSameHost(
    url: string,
    init: { headers: Record<string, string>; signal: AbortSignal },
  ): Promise<{ response: Response } | { refused: string }> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const response = await this.#fetch(current, { ...init, redirect: 'manual' });
      const target = redirectTarget(current, response.status, response.headers.get('location'));
      if (target === undefined) return { response };
      await response.body?.cancel().catch(() => undefined);
      if ('refused' in target) return target;
      if (hop >= MAX_REDIRECTS) return { refused: `more than ${MAX_REDIRECTS} redirects; not followed further` };
      current = target.url;
    }
  }
}
