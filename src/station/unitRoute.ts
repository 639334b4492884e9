/**
 * A station unit's HTTP route, declared without a transport: the HTTP side (src/http/unitRoutes.ts)
 * mounts it as a GET route of the `/v1` scope, behind the API key, with its schema in /openapi.json.
 * A unit answers from memory; a refusal is an HttpError (src/util/httpError.ts: status, message,
 * headers), which the HTTP side sends in the one error envelope.
 */

/** Who may call it (the HTTP side's rules, src/http/auth.ts `RouteAccess`); like every /v1 route, `key` when it names none. */
export type UnitRouteAccess = 'key' | 'bearerOrGetKey' | 'bearer' | 'open';

/** What the route is asked with: the path's `:name` parameters and the query, both as validated by its schema. */
export interface UnitRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
}

export interface UnitRoute {
  /** Under `/v1`, with `:name` parameters: `/stations/:id/snow`. */
  readonly url: string;
  /** JSON schema and OpenAPI parts as fastify reads them: `summary`, `description`, `params`, `querystring`, `response`, `security`. */
  readonly schema?: Readonly<Record<string, unknown>>;
  readonly access?: UnitRouteAccess;
  /** The answer's media type when it is not JSON (then `answer` returns the text), e.g. `text/calendar; charset=utf-8`. */
  readonly contentType?: string;
  /** The answer's body (JSON, or the text of `contentType`); throws an HttpError to refuse. */
  answer(request: UnitRequest): unknown;
}
