/**
 * API keys and the hook of the /v1 scope. Client checks, in docs/api.md's
 * order: blocked address (403), maintenance (503), no key (401), unknown key
 * (401), disabled key (403), method not allowed for the key (405), daily quota
 * (429). A key is read from the Bearer header, from the api_key query
 * parameter on GET, or from the api_key field of a form-encoded POST body. A
 * query api_key on a POST is not a key.
 *
 * `apiKeys` is the only place a /v1 route is admitted: every route in the
 * scope needs a key unless its `config.access` says otherwise.
 */
import type { FastifyInstance, FastifyRequest, preParsingHookHandler, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiKeyCredential } from '../store/serviceStore.js';
import type { Clock } from '../util/clock.js';
import { MESSAGES } from './errors.js';
import { HttpError } from '../util/httpError.js';

/** What the request path reads from the key/block cache. */
export interface AccessView {
  lookupKey(presentedKey: string): ApiKeyCredential | undefined;
  isBlocked(clientAddress: string): boolean;
  readonly maintenance: boolean;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const FORM_TYPE = 'application/x-www-form-urlencoded';

function isReadMethod(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

function bearerKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
}

function isFormRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.toLowerCase().split(';')[0]?.trim() === FORM_TYPE;
}

function stringField(container: unknown, name: string): string | undefined {
  if (typeof container !== 'object' || container === null || !Object.hasOwn(container, name)) return undefined;
  const raw = (container as Record<string, unknown>)[name];
  // A field repeated in a query string or form body (api_key=a&api_key=b) parses as an array: the first one counts.
  const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A form POST without a Bearer header carries its key in the body, so it can
 * only be checked after parsing; every other request is checked before its
 * body is read.
 */
export function keyIsInBody(request: FastifyRequest): boolean {
  return request.method === 'POST' && bearerKey(request) === undefined && isFormRequest(request);
}

export function presentedKey(request: FastifyRequest): string | undefined {
  const fromHeader = bearerKey(request);
  if (fromHeader !== undefined) return fromHeader;
  if (isReadMethod(request)) return stringField(request.query, 'api_key');
  if (request.method === 'POST' && isFormRequest(request)) return stringField(request.body, 'api_key');
  return undefined;
}

export function assertNotBlocked(clientAddress: string, access: AccessView): void {
  if (access.isBlocked(clientAddress)) throw new HttpError(403, MESSAGES.accessDenied);
}

function enabledCredential(key: string | undefined, access: AccessView): ApiKeyCredential {
  if (key === undefined) throw new HttpError(401, MESSAGES.noApiKey);
  const credential = access.lookupKey(key);
  if (!credential) throw new HttpError(401, MESSAGES.invalidApiKey);
  if (credential.disabled) throw new HttpError(403, MESSAGES.apiKeyDisabled);
  return credential;
}

/** Throws docs/api.md's ("Authentication") HttpError for the first failing rule; returns the key's credential otherwise. */
export function authorize(request: FastifyRequest, access: AccessView): ApiKeyCredential {
  const credential = enabledCredential(presentedKey(request), access);
  if (isReadMethod(request) && !credential.allowGet) throw new HttpError(405, MESSAGES.methodNotAllowed);
  return credential;
}

/**
 * For operational routes (GET /metrics with http.metrics "key"): an enabled key
 * in the Bearer header only, so it never lands in a URL or an access log; the
 * GET permission of calculation keys does not apply.
 */
export function authorizeBearer(request: FastifyRequest, access: AccessView): ApiKeyCredential {
  return enabledCredential(bearerKey(request), access);
}

/**
 * Counts requests per key and day; refuses once the quota is used up. In memory (keys.quotaMode
 * shared) the answer is immediate; exact mode asks the database and answers with a promise.
 */
/** A usage gate's answer: admitted, or refused for the key's daily quota (and when to retry). */
export type Admission = { ok: true } | { ok: false; quota: number; retryAfterSeconds: number };

export interface UsageGate {
  admit(credential: ApiKeyCredential, nowMs: number): Admission | Promise<Admission>;
}

function refusal(admission: Admission | undefined): HttpError | undefined {
  if (!admission || admission.ok) return undefined;
  return new HttpError(429, MESSAGES.quotaExceeded(admission.quota), { 'retry-after': String(admission.retryAfterSeconds) });
}

/**
 * Counts the request, then calls `next` (with the 429, Retry-After: seconds until midnight in the
 * configured zone, when the quota is used up). An immediate answer throws its 429 synchronously
 * and calls `next` before returning: the request path stays free of promises.
 */
function admitThen(usage: UsageGate | undefined, credential: ApiKeyCredential, nowMs: number, next: (err?: Error) => void): void {
  const admission = usage?.admit(credential, nowMs);
  if (admission instanceof Promise) {
    admission.then(
      (answer) => next(refusal(answer)),
      (err: unknown) => next(err instanceof Error ? err : new Error(String(err))),
    );
    return;
  }
  const refused = refusal(admission);
  if (refused) throw refused;
  next();
}

/**
 * Who may call a route of the /v1 scope (its `config.access`):
 * - `key` (what a route that names none gets): the calculation's rules above;
 * - `bearerOrGetKey`: a Bearer header with any enabled key, or api_key in the query for keys enabled for GET;
 * - `bearer`: a Bearer header with any enabled key only (a key in a URL lands in browser history and logs);
 * - `open`: no key (registration, the status page's JSON with http.statusPage open).
 */
export type RouteAccess = 'key' | 'bearerOrGetKey' | 'bearer' | 'open';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this /v1 route (src/http/auth.ts); a route that says nothing needs a key. */
    access?: RouteAccess;
    /** Counts each call against the key's daily quota (keys.dailyQuota). */
    countsUsage?: boolean;
  }
}

interface AccessRule {
  /** Refused with 503 while maintenance mode is on. */
  maintenance: boolean;
  check(request: FastifyRequest, access: AccessView): ApiKeyCredential;
}

const RULES: Record<Exclude<RouteAccess, 'open'>, AccessRule> = {
  key: { maintenance: true, check: authorize },
  bearerOrGetKey: {
    maintenance: true,
    check: (request, access) =>
      request.headers.authorization !== undefined ? authorizeBearer(request, access) : authorize(request, access),
  },
  bearer: { maintenance: false, check: authorizeBearer },
};

export interface ApiKeysOptions {
  access: AccessView;
  clock: Clock;
  /** Per-key usage and daily quota for routes with `countsUsage` (omitted: not counted). */
  usage?: UsageGate;
}

/** Only the calculation's rules read a key from a form body. */
const waitsForBody = (access: RouteAccess, request: FastifyRequest): boolean => access === 'key' && keyIsInBody(request);

/**
 * The key hook of the /v1 scope (the context that registers it). Each route of the scope gets its
 * own pair of hooks when it is added (onRoute, also for fastify's HEAD twin of a GET route), with
 * the route's `config.access` and `config.countsUsage` read once there rather than per request
 * (fastify builds a new `request.routeOptions` object on every read). An `open` route gets none.
 * They run after the onRequest hooks (address block, rate limit) and before the body is read or
 * the route's schema validates anything, so a request without a key learns nothing about station
 * ids or fields. A form POST without a Bearer header carries its key in the body: that one is
 * checked once it is parsed. Callback style: a promise per request costs more than the checks.
 */
function apiKeyHooks(scope: FastifyInstance, { access, clock, usage }: ApiKeysOptions, done: (err?: Error) => void): void {
  scope.addHook('onRoute', (route) => {
    const name: RouteAccess = route.config?.access ?? 'key';
    if (name === 'open') return;
    const rule = RULES[name];
    const countsUsage = route.config?.countsUsage === true;
    const admit = (request: FastifyRequest, next: (err?: Error) => void): void => {
      if (rule.maintenance && access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      const credential = rule.check(request, access);
      if (countsUsage) admitThen(usage, credential, clock.now(), next);
      else next();
    };
    const preParsing: preParsingHookHandler = (request, _reply, payload, next) => {
      if (waitsForBody(name, request)) next(null, payload);
      else admit(request, (err) => (err ? next(err) : next(null, payload)));
    };
    const preValidation: preValidationHookHandler = (request, _reply, next) => {
      if (waitsForBody(name, request)) admit(request, next);
      else next();
    };
    // New arrays, never the route's own: fastify's HEAD twin of a GET route shares the GET route's options.
    const ownParsing = route.preParsing;
    route.preParsing =
      ownParsing === undefined ? [preParsing] : Array.isArray(ownParsing) ? [...ownParsing, preParsing] : [ownParsing, preParsing];
    const ownValidation = route.preValidation;
    route.preValidation =
      ownValidation === undefined
        ? [preValidation]
        : Array.isArray(ownValidation)
          ? [...ownValidation, preValidation]
          : [ownValidation, preValidation];
  });
  done();
}

/** The plugins of the /v1 scope name it as their dependency: registered elsewhere, fastify refuses to start. */
export const API_KEYS_PLUGIN = 'mowability-api-keys';
/** Not encapsulated: the hooks belong to the scope that registers the plugin. */
export const apiKeys = fp(apiKeyHooks, { name: API_KEYS_PLUGIN });
