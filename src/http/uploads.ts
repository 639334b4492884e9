/**
 * Direct station uploads, by every path and method consoles use:
 * - the Weather Underground protocol: GET /weatherstation/updateweatherstation.php,
 *   or .asp (WeatherLink, HP1000/HP1001/WH2600 firmware), or without an extension;
 * - http.ecowittUploadPath: Ecowitt gateways' "Customized" upload (protocol Ecowitt,
 *   a form POST), and by GET for consoles that send the fields in the URL (Ambient
 *   "Customized", Ecowitt set to the Wunderground protocol), including fields glued
 *   onto the path without a "?" (".../data/report/&PASSKEY=...").
 * Which protocol an upload speaks is told by its credentials, not its path
 * (./uploadsReceive.ts), so an Ambient console on the WU path is matched by
 * PASSKEY. Consoles cannot send headers, so these routes take no API key. Every
 * request is answered 200 "success", as the protocols expect: a console that
 * got an error would only retry the same body. Uploads count toward
 * http.rateLimit like any request (a console sends a few per minute).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { formFields, type UploadFields } from '../ingest/formats/uploadFields.js';
import type { StationConfig } from '../ingest/types.js';
import type { ClientAddressOf } from './clientAddress.js';
import { createUploadMatcher } from './uploadsMatch.js';
import type { UploadCounters, UploadProtocol } from './uploadsCounters.js';
import { createUploadReceiver, type AcceptReading, type UploadRefusal } from './uploadsReceive.js';

export type { AcceptReading, UploadRefusal } from './uploadsReceive.js';

/** The protocol's fixed path (Weather Underground PWS upload; Ambient and Ecowitt use it too). */
export const WUNDERGROUND_PATH = '/weatherstation/updateweatherstation.php';
/** Every spelling of it consoles send: PHP (WU's own), ASP (WeatherLink, Fine Offset firmware), none. */
export const WUNDERGROUND_PATHS = [WUNDERGROUND_PATH, '/weatherstation/updateweatherstation.asp', '/weatherstation/updateweatherstation'] as const;
/** What WU answers and what stations check for; Ecowitt gateways accept it too. */
export const UPLOAD_ANSWER = 'success';
/** A gateway body with every sensor is under 3 KB; the rest is not a gateway. */
export const UPLOAD_BODY_LIMIT_BYTES = 16_384;
const ANSWER_TYPE = 'text/plain; charset=utf-8';

export interface UploadRouteDeps {
  stations: readonly StationConfig[];
  /** '' switches the Ecowitt route off. */
  ecowittPath: string;
  acceptReading: AcceptReading;
  counters: UploadCounters;
  logger: Logger;
  clientAddressOf: ClientAddressOf;
  now?: () => number;
  /** Told of every refused upload (the station's state, status page and `mowability status` show it). */
  onRefused?: (refusal: UploadRefusal) => void;
}

function bare(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The path as configured and without (or with) its trailing slash: gateways differ. */
export function pathVariants(path: string): string[] {
  const base = bare(path);
  return base === '/' ? ['/'] : [base, `${base}/`];
}

function fieldsOf(value: unknown): UploadFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as UploadFields) : {};
}

/** The fields of a GET on the Ecowitt path: the query string, or what a console glued onto the path. */
function urlFields(request: FastifyRequest, base: string): UploadFields {
  return formFields(request.url.slice(base.length));
}

export function registerUploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): void {
  const receive = createUploadReceiver({ ...deps, now: deps.now ?? Date.now }, createUploadMatcher(deps.stations));
  const answer = (request: FastifyRequest, fields: UploadFields, fallback: UploadProtocol): string => {
    receive(fields, fallback, deps.clientAddressOf(request));
    return UPLOAD_ANSWER;
  };

  // In their own scope: any body type is read as a form (gateways differ), up to UPLOAD_BODY_LIMIT_BYTES.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: UPLOAD_BODY_LIMIT_BYTES }, (_request, body, done) => {
      done(null, formFields(String(body)));
    });
    const schema = { hide: true };
    const base = bare(deps.ecowittPath);
    if (deps.ecowittPath !== '') {
      for (const url of pathVariants(deps.ecowittPath)) {
        scope.post(url, { schema, bodyLimit: UPLOAD_BODY_LIMIT_BYTES }, async (request, reply) =>
          reply.type(ANSWER_TYPE).send(answer(request, { ...urlFields(request, base), ...fieldsOf(request.body) }, 'ecowitt')));
      }
      // "/" would take every GET path (the status page lives there): POST only then.
      if (base !== '/') {
        scope.get(`${base}*`, { schema }, async (request, reply) => reply.type(ANSWER_TYPE).send(answer(request, urlFields(request, base), 'ecowitt')));
      }
    }
    for (const path of WUNDERGROUND_PATHS) {
      scope.get(path, { schema }, async (request, reply) => reply.type(ANSWER_TYPE).send(answer(request, fieldsOf(request.query), 'wunderground')));
    }
  });
}
