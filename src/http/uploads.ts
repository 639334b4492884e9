/**
 * Direct station uploads: Ecowitt gateways' "Customized" upload (Ecowitt
 * protocol, a form POST at http.ecowittUploadPath) and the Weather Underground
 * protocol (GET /weatherstation/updateweatherstation.php). Gateways cannot
 * send headers, so these routes take no API key; the station is found by its
 * PASSKEY or ID+PASSWORD (./uploadsMatch.ts). Every request is answered 200
 * "success", as the protocols expect: a gateway that got an error would only
 * retry the same body. Refusals are counted (./uploadsCounters.ts) and logged
 * at most once a minute per station and reason. Uploads count toward
 * http.rateLimit like any request (a gateway sends a few per minute).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { formFields, parseEcowittUpload, type UploadFields } from '../ingest/formats/ecowittHttp.js';
import { parseWundergroundUpload } from '../ingest/formats/wunderground.js';
import type { ParseOutcome, Reading, StationConfig } from '../ingest/types.js';
import { LogThrottle } from '../util/logThrottle.js';
import type { ClientAddressOf } from './clientAddress.js';
import { createUploadMatcher, uploadSecretDigest, type Match } from './uploadsMatch.js';
import type { UploadCounters, UploadOutcome, UploadProtocol } from './uploadsCounters.js';

/** The protocol's fixed path (Weather Underground PWS upload; Ambient and Ecowitt use it too). */
export const WUNDERGROUND_PATH = '/weatherstation/updateweatherstation.php';
/** What WU answers and what stations check for; Ecowitt gateways accept it too. */
export const UPLOAD_ANSWER = 'success';
/** A gateway body with every sensor is under 3 KB; the rest is not a gateway. */
export const UPLOAD_BODY_LIMIT_BYTES = 16_384;
const ANSWER_TYPE = 'text/plain; charset=utf-8';
const LOG_INTERVAL_MS = 60_000;
/** Longest text of a gateway's own name (model, ID) that reaches the log. */
const LOGGED_TEXT_MAX = 64;

/** MqttService.acceptReading, or a stand-in when the MQTT side is off. */
export type AcceptReading = (stationId: string, reading: Reading, origin: string) => 'accepted' | 'duplicate' | 'rejected' | 'unknown_station' | 'not_running';

export interface UploadRouteDeps {
  stations: readonly StationConfig[];
  /** '' switches the Ecowitt route off. */
  ecowittPath: string;
  acceptReading: AcceptReading;
  counters: UploadCounters;
  logger: Logger;
  clientAddressOf: ClientAddressOf;
  now?: () => number;
}

/** The path as configured and without (or with) its trailing slash: gateways differ. */
export function pathVariants(path: string): string[] {
  const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return bare === '/' ? ['/'] : [bare, `${bare}/`];
}

function loggedText(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, LOGGED_TEXT_MAX) : undefined;
}

function fieldsOf(value: unknown): UploadFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as UploadFields) : {};
}

export function registerUploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): void {
  const log = deps.logger.child({ module: 'uploads' });
  const throttle = new LogThrottle(log, LOG_INTERVAL_MS, deps.now ?? Date.now);
  const matcher = createUploadMatcher(deps.stations);

  const refuse = (protocol: UploadProtocol, station: string | undefined, outcome: UploadOutcome, details: Record<string, unknown>, message: string): void => {
    deps.counters.add(protocol, station, outcome);
    throttle.warn(`${protocol}:${station ?? ''}:${outcome}`, { protocol, station, reason: outcome, ...details }, message);
  };

  const receive = (protocol: UploadProtocol, match: Match, fields: UploadFields, parse: (station: StationConfig, fields: UploadFields) => ParseOutcome, address: string): void => {
    if ('refused' in match) {
      refuse(protocol, undefined, match.refused, { clientAddress: address, ...unmatchedDetails(protocol, match.refused, fields) }, 'upload matched no station; answered "success" and dropped');
      return;
    }
    const { station } = match;
    const parsed = parse(station, fields);
    if (parsed.kind !== 'reading') {
      refuse(protocol, station.id, 'unparsable', { reason: parsed.reason }, 'upload carried no usable reading');
      return;
    }
    const result = deps.acceptReading(station.id, parsed.reading, `upload:${protocol}`);
    const outcome: UploadOutcome = result === 'unknown_station' ? 'not_running' : result;
    if (outcome === 'not_running') refuse(protocol, station.id, outcome, {}, 'upload dropped: the station pipeline is not running (is MQTT off?)');
    // The pipeline logs why it refused a reading (time, duplicate); here it is counted per station.
    else deps.counters.add(protocol, station.id, outcome);
  };

  const handle = (protocol: UploadProtocol, work: () => void): void => {
    try {
      work();
    } catch (err) {
      // A bug costs one upload, never the gateway's answer.
      refuse(protocol, undefined, 'rejected', { err }, 'upload could not be handled');
    }
  };

  // In their own scope: any body type is read as a form (gateways differ), up to UPLOAD_BODY_LIMIT_BYTES.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: UPLOAD_BODY_LIMIT_BYTES }, (_request, body, done) => {
      done(null, formFields(String(body)));
    });
    const schema = { hide: true };
    if (deps.ecowittPath !== '') {
      for (const url of pathVariants(deps.ecowittPath)) {
        scope.post(url, { schema, bodyLimit: UPLOAD_BODY_LIMIT_BYTES }, async (request, reply) => {
          handle('ecowitt', () => {
            const fields = fieldsOf(request.body);
            receive('ecowitt', matcher.ecowitt(fields.PASSKEY), fields, parseEcowittUpload, deps.clientAddressOf(request));
          });
          return reply.type(ANSWER_TYPE).send(UPLOAD_ANSWER);
        });
      }
    }
    scope.get(WUNDERGROUND_PATH, { schema }, async (request, reply) => {
      handle('wunderground', () => {
        const fields = fieldsOf(request.query);
        receive('wunderground', matcher.wunderground(fields.ID, fields.PASSWORD), fields, parseWundergroundUpload, deps.clientAddressOf(request));
      });
      return reply.type(ANSWER_TYPE).send(UPLOAD_ANSWER);
    });
  });
}

/**
 * What helps the owner to configure an unmatched gateway, never a secret: for an Ecowitt
 * PASSKEY its SHA-256 (the PASSKEY is the gateway's MAC hashed, not a chosen password, and the
 * digest is what the config holds); for WU only the public station ID.
 */
function unmatchedDetails(protocol: UploadProtocol, refused: string, fields: UploadFields): Record<string, unknown> {
  if (protocol === 'wunderground') return { stationId: loggedText(fields.ID) };
  const details: Record<string, unknown> = { model: loggedText(fields.model), stationtype: loggedText(fields.stationtype) };
  if (refused === 'unknown_passkey' && typeof fields.PASSKEY === 'string') {
    details.hint = `if this is your gateway, add to its station: "upload": {"passkeySha256": "${uploadSecretDigest(fields.PASSKEY)}"}`;
  }
  return details;
}
