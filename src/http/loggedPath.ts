/**
 * The path as logs show it. A matched route logs its pattern
 * (`/v1/registrations/:claim_token`), so secrets in path parameters never
 * reach a log. A path no route matched (another method, a trailing slash, a
 * typo: answered 404 or 405) is logged as requested, without its query string,
 * but with every segment that could be a secret replaced: the segment after a
 * `registrations` segment (`:claim_token`), and any segment that reads as a
 * claim token or an API key (`:redacted`), after percent-decoding and in any
 * letter case, because the claim route would take the token in its proper form.
 */
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, CLAIM_TOKEN_PREFIX } from '../store/apiKeyCodec.js';
import { REGISTRATIONS_PATH } from './paths.js';

/** The last segment of the registrations path: the one a claim token follows. */
const REGISTRATIONS_SEGMENT = REGISTRATIONS_PATH.slice(REGISTRATIONS_PATH.lastIndexOf('/') + 1);
const SECRET_PREFIXES = [CLAIM_TOKEN_PREFIX, API_KEY_PREFIX];

export function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** An unmatched path with its possible secrets replaced (pure, for tests). */
export function redactPath(path: string): string {
  const segments = path.split('/');
  let changed = false;
  for (let index = 0; index < segments.length; index++) {
    const segment = decoded(segments[index]!);
    const afterRegistrations = index > 0 && decoded(segments[index - 1]!) === REGISTRATIONS_SEGMENT && segment !== '';
    if (afterRegistrations || SECRET_PREFIXES.some((prefix) => segment.includes(prefix))) {
      segments[index] = afterRegistrations ? ':claim_token' : ':redacted';
      changed = true;
    }
  }
  return changed ? segments.join('/') : path;
}

/** `route`: the request's route pattern when the caller has read it already (fastify builds `routeOptions` anew on every read). */
export function loggedPath(request: FastifyRequest, route: string | undefined = request.routeOptions?.url): string {
  return route ?? redactPath(pathOf(request));
}
