/**
 * Client checks for the calculation endpoint, in the contract's order:
 * blocked address (403), no key (401), unknown key (401), disabled key (403),
 * method not allowed for the key (405). A key is read from the Bearer header,
 * from the api_key query parameter on GET, or from the api_key field of a
 * form-encoded POST body. A query api_key on a POST is not a key.
 */
import type { FastifyRequest } from 'fastify';
import type { ApiKeyCredential } from '../store/serviceStore.js';
import { HttpError, MESSAGES } from './errors.js';

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

/** Throws the contract's HttpError for the first failing rule; returns the key's credential otherwise. */
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
