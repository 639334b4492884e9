/**
 * Direct station uploads, by every path and method consoles use:
 * - the Weather Underground protocol: GET /weatherstation/updateweatherstation.php,
 *   or .asp (WeatherLink, HP1000/HP1001/WH2600 firmware), or without an extension;
 * - http.ecowittUploadPath: Ecowitt gateways' "Customized" upload (protocol Ecowitt,
 *   a form POST), and by GET for consoles that send the fields in the URL (Ambient
 *   "Customized", Ecowitt set to the Wunderground protocol), including fields glued
 *   onto the path without a "?" (".../data/report/&PASSKEY=...").
 * Which protocol an upload speaks is told by its credentials, not its path
 * (createUploadReceiver below), so an Ambient console on the WU path is matched by
 * PASSKEY. Consoles cannot send headers, so these routes take no API key. Every
 * request is answered 200 "success", as the protocols expect: a console that
 * got an error would only retry the same body. Uploads count toward
 * http.rateLimit like any request (a console sends a few per minute).
 */
import type { FastifyInstance, FastifyPluginCallback, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { parseEcowittUpload } from '../ingest/formats/ecowittHttp.js';
import { formFields, type UploadFields } from '../ingest/formats/uploadFields.js';
import { parseWundergroundUpload } from '../ingest/formats/wunderground.js';
import { resolveReadingTime } from '../ingest/time.js';
import type { ParseOutcome, StationConfig } from '../ingest/types.js';
import { LogThrottle } from '../util/logThrottle.js';
import type { AcceptReading } from '../station/facade.js';
import { createUploadMatcher, passkeyDigest, type Match, type UploadMatcher } from './uploadsMatch.js';
import type { UploadCounters, UploadOutcome, UploadProtocol } from './uploadsCounters.js';

/** The protocol's fixed path (Weather Underground PWS upload; Ambient and Ecowitt use it too). */
export const WUNDERGROUND_PATH = '/weatherstation/updateweatherstation.php';
/** Every spelling of it consoles send: PHP (WU's own), ASP (WeatherLink, Fine Offset firmware), none. */
export const WUNDERGROUND_PATHS = [
  WUNDERGROUND_PATH,
  '/weatherstation/updateweatherstation.asp',
  '/weatherstation/updateweatherstation',
] as const;
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
  now?: () => number;
  /** Told of every refused upload (the station's state, status page and `mowability status` show it). */
  onRefused?: (refusal: UploadRefusal) => void;
}

/** A refused upload as the user is told of it. `station` is undefined when it matched none. */
export interface UploadRefusal {
  station: string | undefined;
  protocol: UploadProtocol;
  outcome: UploadOutcome;
  /** One sentence, never a secret. */
  reason: string;
  atMs: number;
  /** For an unmatched upload: what names the console (its WU ID, or its PASSKEY's digest), never a secret. */
  source?: string;
}

export interface UploadReceiverDeps {
  acceptReading: AcceptReading;
  counters: UploadCounters;
  logger: Logger;
  now: () => number;
  onRefused?: (refusal: UploadRefusal) => void;
}

const LOG_INTERVAL_MS = 60_000;
/** Longest text of a console's own name (model, ID) that reaches the log and the refusal. */
const LOGGED_TEXT_MAX = 64;

const MATCH_REASONS: Record<string, string> = {
  missing_credentials: 'the upload carried neither a PASSKEY nor an ID and PASSWORD',
  unknown_passkey: 'no configured station has this PASSKEY (upload.passkeySha256)',
  unknown_station_id: 'no configured station has this station ID (upload.stationId)',
  wrong_password: "the PASSWORD does not match the station's upload.passwordSha256",
};

function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function loggedText(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, LOGGED_TEXT_MAX) : undefined;
}

/** The protocol the fields speak, by their credentials; `fallback` (the path's) when they carry none. */
export function protocolOf(fields: UploadFields, fallback: UploadProtocol): UploadProtocol {
  if (single(fields.PASSKEY) !== undefined && single(fields.ID) === undefined) {
    return /^AMBWeather/i.test(single(fields.stationtype) ?? '') ? 'ambient' : 'ecowitt';
  }
  if (fields.ID !== undefined || fields.PASSWORD !== undefined) return 'wunderground';
  return fallback;
}

type Parser = (station: StationConfig, fields: UploadFields) => ParseOutcome;

/**
 * One station upload, whatever path or method it came by: the credentials it
 * carries pick the protocol (a PASSKEY without ID: Ecowitt, or Ambient when
 * `stationtype` says AMBWeather; ID/PASSWORD: Weather Underground), the
 * matcher finds the station, the protocol's parser reads the fields, and
 * the pipeline takes the reading. Every outcome is counted; every refusal is
 * logged (at most once a minute per station and reason) and handed to
 * `onRefused` with a sentence for people, so the station's state, status
 * page and `mowability status` can say "last upload refused: <reason>".
 */
export function createUploadReceiver(
  deps: UploadReceiverDeps,
  matcher: UploadMatcher,
): (fields: UploadFields, fallback: UploadProtocol, address: string) => void {
  const log = deps.logger.child({ module: 'uploads' });
  const throttle = new LogThrottle(log, LOG_INTERVAL_MS);

  const refuse = (refusal: Omit<UploadRefusal, 'atMs'>, details: Record<string, unknown>, message: string): void => {
    deps.counters.add(refusal.protocol, refusal.station, refusal.outcome);
    throttle.warn(
      `${refusal.protocol}:${refusal.station ?? ''}:${refusal.outcome}`,
      { protocol: refusal.protocol, station: refusal.station, reason: refusal.outcome, detail: refusal.reason, ...details },
      message,
    );
    deps.onRefused?.({ ...refusal, atMs: deps.now() });
  };

  const receive = (protocol: UploadProtocol, match: Match, fields: UploadFields, parse: Parser, address: string): void => {
    if ('refused' in match) {
      const source = sourceOf(protocol, fields);
      refuse(
        {
          station: undefined,
          protocol,
          outcome: match.refused,
          reason: MATCH_REASONS[match.refused] ?? match.refused,
          ...(source ? { source } : {}),
        },
        { clientAddress: address, ...unmatchedDetails(protocol, match.refused, fields) },
        'upload matched no station; answered "success" and dropped',
      );
      return;
    }
    const { station } = match;
    const parsed = parse(station, fields);
    if (parsed.kind !== 'reading') {
      refuse({ station: station.id, protocol, outcome: 'unparsable', reason: parsed.reason }, {}, 'upload carried no usable reading');
      return;
    }
    const result = deps.acceptReading(station.id, parsed.reading, `upload:${protocol}`);
    if (result === 'not_running' || result === 'unknown_station') {
      refuse(
        { station: station.id, protocol, outcome: 'not_running', reason: 'the station pipeline is not running yet' },
        {},
        'upload dropped: the station pipeline is not running',
      );
    } else if (result === 'rejected') {
      // The pipeline logs why (throttled); the time is the usual reason, said here again for the user.
      const time = resolveReadingTime(parsed.reading.payloadTimeMs, deps.now());
      const reason = time.ok ? 'the station pipeline refused the reading (see the log)' : `dateutc: ${time.reason}`;
      deps.counters.add(protocol, station.id, 'rejected');
      deps.onRefused?.({ station: station.id, protocol, outcome: 'rejected', reason, atMs: deps.now() });
    } else deps.counters.add(protocol, station.id, result);
  };

  return (fields, fallback, address) => {
    const protocol = protocolOf(fields, fallback);
    try {
      if (protocol === 'wunderground')
        receive(protocol, matcher.wunderground(fields.ID, fields.PASSWORD), fields, parseWundergroundUpload, address);
      else receive(protocol, matcher.ecowitt(fields.PASSKEY), fields, parseEcowittUpload, address);
    } catch (err) {
      // A bug costs one upload, never the console's answer.
      refuse(
        { station: undefined, protocol, outcome: 'rejected', reason: 'the upload could not be handled (see the log)' },
        { err },
        'upload could not be handled',
      );
    }
  };
}

/** What names an unmatched console to its owner, never a secret: the WU station ID, or the PASSKEY's SHA-256. */
function sourceOf(protocol: UploadProtocol, fields: UploadFields): string | undefined {
  if (protocol === 'wunderground') {
    const id = loggedText(fields.ID);
    return id === undefined ? undefined : `ID ${id}`;
  }
  const passkey = single(fields.PASSKEY);
  return passkey === undefined ? undefined : `PASSKEY SHA-256 ${passkeyDigest(passkey)}`;
}

/**
 * What helps the owner to configure an unmatched console, never a secret: for a PASSKEY its
 * SHA-256 (an Ecowitt PASSKEY is the gateway's MAC hashed, Ambient's is the MAC itself; the
 * digest is what the config holds); for WU only the public station ID.
 */
function unmatchedDetails(protocol: UploadProtocol, refused: string, fields: UploadFields): Record<string, unknown> {
  if (protocol === 'wunderground') return { stationId: loggedText(fields.ID) };
  const details: Record<string, unknown> = { model: loggedText(fields.model), stationtype: loggedText(fields.stationtype) };
  if (refused === 'unknown_passkey' && typeof fields.PASSKEY === 'string') {
    details.hint = `if this is your console, add to its station: "upload": {"passkeySha256": "${passkeyDigest(fields.PASSKEY)}"}`;
  }
  return details;
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

/** Encapsulated: any body type is read as a form (gateways differ), up to UPLOAD_BODY_LIMIT_BYTES. */
const uploadRoutes: FastifyPluginCallback<UploadRouteDeps> = (scope: FastifyInstance, deps, done) => {
  const receive = createUploadReceiver({ ...deps, now: deps.now ?? Date.now }, createUploadMatcher(deps.stations));
  const answer = (request: FastifyRequest, fields: UploadFields, fallback: UploadProtocol): string => {
    receive(fields, fallback, scope.clientAddressOf(request));
    return UPLOAD_ANSWER;
  };

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: UPLOAD_BODY_LIMIT_BYTES }, (_request, body, parsed) => {
    parsed(null, formFields(String(body)));
  });
  const schema = { hide: true };
  const base = bare(deps.ecowittPath);
  if (deps.ecowittPath !== '') {
    for (const url of pathVariants(deps.ecowittPath)) {
      scope.post(url, { schema, bodyLimit: UPLOAD_BODY_LIMIT_BYTES }, async (request, reply) =>
        reply.type(ANSWER_TYPE).send(answer(request, { ...urlFields(request, base), ...fieldsOf(request.body) }, 'ecowitt')),
      );
    }
    // "/" would take every GET path (the status page lives there): POST only then.
    if (base !== '/') {
      scope.get(`${base}*`, { schema }, async (request, reply) =>
        reply.type(ANSWER_TYPE).send(answer(request, urlFields(request, base), 'ecowitt')),
      );
    }
  }
  for (const path of WUNDERGROUND_PATHS) {
    scope.get(path, { schema }, async (request, reply) =>
      reply.type(ANSWER_TYPE).send(answer(request, fieldsOf(request.query), 'wunderground')),
    );
  }
  done();
};

export const uploadsPlugin = fp(uploadRoutes, {
  name: 'mowability-uploads',
  encapsulate: true,
  decorators: { fastify: ['clientAddressOf'] },
});
