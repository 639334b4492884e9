/**
 * Snow cover from a topic: the worked example of a station unit (docs/units.md). A station's
 * `snow.topic` carries the snow depth in cm or a yes/no; while snow lies the station's state says
 * so (`snow`), `mowable` is held off with a reason in English and German, Home Assistant gets a binary_sensor and
 * GET /v1/stations/{id}/snow shows the last value. Everything the unit needs is in this module:
 * its setting (`snowCover.minDepthCm`), its station key and the key's validation, its state,
 * hold, entity, counters and route. It is plugged in by one line in stationUnits() (src/daemon.ts).
 *
 * A retained value counts like a live one: snow is a state, not an event, and the broker replays
 * the last one after a restart. The value is kept in memory only.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import { HttpError } from '../util/httpError.js';
import { isPlainObject, topicFilterProblem, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';
import { toNumber } from '../ingest/units.js';
import { defineStationUnit, type MowableHold, type StationUnit, type UnitStation, type UnitSubscriber } from '../station/unit.js';
import type { LogThrottle } from '../util/logThrottle.js';

/** A station's `snow`: the topic carrying the snow depth (cm) or a yes/no, and the JSON key holding it. */
export interface SnowStationSettings {
  topic: string;
  key?: string;
}

/** The unit's global settings (`snowCover.*`). */
export interface SnowCoverSettings {
  minDepthCm: number;
}

/** The state's machine word for the hold. */
export const SNOW_HOLD_CODE = 'snow_cover';
/** JSON key read when the station's `snow` names none (HA statestream-style objects). */
export const DEFAULT_SNOW_KEY = 'state';
/** A depth or a yes/no is a few bytes; anything longer is not one. */
export const MAX_SNOW_PAYLOAD_BYTES = 1024;
/** Deeper than any snow in a garden: a larger number is a wrong unit or a broken sensor. */
export const MAX_SNOW_DEPTH_CM = 1000;

const YES = new Set(['on', 'true', 'yes', 'snow']);
const NO = new Set(['off', 'false', 'no', 'none']);

/** One report: a depth in cm (then `lying` follows from the setting) or only whether snow lies. */
export type SnowReport = { depthCm: number } | { lying: boolean };

function fromValue(value: unknown): SnowReport | undefined {
  if (typeof value === 'boolean') return { lying: value };
  const depth = toNumber(value);
  if (depth !== undefined) return depth >= 0 && depth <= MAX_SNOW_DEPTH_CM ? { depthCm: depth } : undefined;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return YES.has(word) ? { lying: true } : NO.has(word) ? { lying: false } : undefined;
}

/** `12.5` (cm), `ON`/`OFF`, `true`/`false`, `yes`/`no`, or a JSON object whose `key` holds one of them. */
export function parseSnowPayload(text: string, key: string = DEFAULT_SNOW_KEY): SnowReport | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return fromValue(trimmed);
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return isPlainObject(parsed) && Object.hasOwn(parsed, key) ? fromValue(parsed[key]) : undefined;
  } catch {
    return undefined;
  }
}

/** What the state (`snow`) and the route show of a station's snow cover. */
export interface SnowStatus {
  topic: string;
  /** null until the first value arrived. */
  lying: boolean | null;
  depth_cm: number | null;
  updated_at: string | null;
}

const SNOW_KEYS = ['topic', 'key'];

/** The station key `snow` and its validation. */
const SNOW_STATION_KEY: UnitStationKey = {
  key: 'snow',
  problems(snow: unknown, problem: Problem): void {
    if (!isPlainObject(snow)) return problem('snow', 'must be an object {"topic": "...", "key": "depth"} naming the MQTT topic that carries the snow depth in cm or a yes/no');
    for (const key of Object.keys(snow)) if (!SNOW_KEYS.includes(key)) problem(`snow.${key}`, `is not allowed (only ${SNOW_KEYS.join(' and ')})`);
    if (typeof snow.topic !== 'string') problem('snow.topic', 'is required: the MQTT topic carrying the snow depth in cm or a yes/no (e.g. "garden/snow_depth")');
    else {
      const topicProblem = topicFilterProblem(snow.topic);
      if (topicProblem) problem('snow.topic', topicProblem);
      else if (snow.topic.includes('+') || snow.topic.includes('#')) problem('snow.topic', 'must be a concrete topic (no wildcards): one station, one snow value');
    }
    if (snow.key !== undefined && (typeof snow.key !== 'string' || snow.key === '')) {
      problem('snow.key', 'must be a non-empty JSON key (the payload key holding the depth or yes/no in JSON payloads)');
    }
  },
  topics: (snow) => [(snow as SnowStationSettings).topic],
};

const SNOW_SETTINGS = {
  minDepthCm: {
    doc: 'Snow cover (docs/units.md): the depth in cm from which snow reported on a station\'s "snow.topic" counts as lying and holds "mowable" off. A yes/no report is taken as it is.',
    format: (value: unknown) => {
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_SNOW_DEPTH_CM) throw new Error(`must be a number of cm above 0 and at most ${MAX_SNOW_DEPTH_CM}`);
    },
    default: 1,
    env: 'MOWABILITY_SNOW_COVER_MIN_DEPTH_CM',
  },
};

interface Known {
  report: SnowReport;
  atMs: number;
}

/** Every station's snow cover: subscribes, parses, counts, holds `mowable` off, shows it. */
export class SnowCover implements StationUnit {
  readonly name = 'snow-cover';
  readonly counters = { snowReceived: 0, snowRejected: 0 };
  readonly metrics = {
    snowReceived: ['snow_messages_received_total', "Messages on the stations' snow topics."],
    snowRejected: ['snow_messages_rejected_total', 'Snow messages refused (not a depth in cm or a yes/no, too large).'],
  } as const;
  readonly routes: FastifyPluginAsync;
  readonly #stations: ReadonlyMap<string, SnowStationSettings>;
  readonly #known = new Map<string, Known>();
  readonly #minDepthCm: number;
  readonly #throttle: LogThrottle;
  readonly #now: () => number;

  constructor(options: { stations: readonly UnitStation<SnowStationSettings>[]; settings: SnowCoverSettings; throttle: LogThrottle; now: () => number }) {
    this.#stations = new Map(options.stations.map((station) => [station.id, station.settings]));
    this.#minDepthCm = options.settings.minDepthCm;
    this.#throttle = options.throttle;
    this.#now = options.now;
    this.routes = snowRoutes(this);
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    for (const [stationId, settings] of this.#stations) {
      connection.subscribe(settings.topic, (_topic, payload) => {
        if (this.handle(stationId, payload)) recompute(stationId);
      });
    }
  }

  /** One message on a station's snow topic; true when the station's state changes. */
  handle(stationId: string, payload: Buffer): boolean {
    const settings = this.#stations.get(stationId);
    if (!settings) return false;
    this.counters.snowReceived++;
    const key = settings.key ?? DEFAULT_SNOW_KEY;
    const report = payload.length <= MAX_SNOW_PAYLOAD_BYTES ? parseSnowPayload(payload.toString('utf8'), key) : undefined;
    if (report === undefined) {
      this.counters.snowRejected++;
      this.#throttle.warn(`snow:${stationId}`, { station: stationId, topic: settings.topic, bytes: payload.length },
        `snow payload ignored: expected a depth in cm (0 to ${MAX_SNOW_DEPTH_CM}), ON/OFF, true/false, yes/no or a JSON object with "${key}" holding one of them`);
      return false;
    }
    this.#known.set(stationId, { report, atMs: this.#now() });
    return true;
  }

  status(stationId: string): SnowStatus | undefined {
    const settings = this.#stations.get(stationId);
    if (!settings) return undefined;
    const known = this.#known.get(stationId);
    const depth = known && 'depthCm' in known.report ? known.report.depthCm : null;
    return {
      topic: settings.topic,
      lying: known ? (depth === null ? (known.report as { lying: boolean }).lying : depth >= this.#minDepthCm) : null,
      depth_cm: depth,
      updated_at: known ? new Date(known.atMs).toISOString() : null,
    };
  }

  stateFragment(stationId: string): { snow: SnowStatus } | undefined {
    const status = this.status(stationId);
    return status ? { snow: status } : undefined;
  }

  mowableHold(stationId: string): MowableHold | undefined {
    const status = this.status(stationId);
    if (!status?.lying) return undefined;
    const depth = (locale: string) => (status.depth_cm === null ? '' : ` (${status.depth_cm.toLocaleString(locale)} cm)`);
    return { code: SNOW_HOLD_CODE, reason: { en: `snow is lying${depth('en-GB')}: do not mow until it has thawed`, de: `Schnee liegt${depth('de-DE')}: nicht mähen, bis er getaut ist` } };
  }

  entities(station: { id: string }): EntitySpec[] {
    if (!this.#stations.has(station.id)) return [];
    const has = 'value_json.snow is defined and value_json.snow.lying is not none';
    return [{
      component: 'binary_sensor',
      key: 'snow_cover',
      config: { name: 'Snow cover', icon: 'mdi:snowflake', payload_on: 'ON', payload_off: 'OFF', value_template: `{{ ('ON' if value_json.snow.lying else 'OFF') if ${has} else None }}` },
    }];
  }

  stats(): Readonly<Record<string, number>> {
    return this.counters;
  }
}

/** GET /v1/stations/{id}/snow (the /v1 scope asks for the API key first). */
function snowRoutes(unit: SnowCover): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>('/stations/:id/snow', {
      schema: {
        summary: "A station's snow cover: the last value of its snow topic",
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' } } },
        security: [{ bearerAuth: [] }, { apiKeyQuery: [] }],
      },
    }, async (request) => {
      const status = unit.status(request.params.id);
      if (!status) throw new HttpError(404, 'Unknown station, or the station has no "snow" setting.');
      return { status: 'ok', station: request.params.id, snow: status };
    });
  };
}

/** The snow cover unit: one line in stationUnits() (src/daemon.ts) plugs it in. */
export const snowCoverUnit = defineStationUnit<SnowCoverSettings, SnowStationSettings>({
  name: 'snow-cover',
  config: { settings: { key: 'snowCover', schema: SNOW_SETTINGS }, station: SNOW_STATION_KEY },
  create: ({ settings, stations, throttle, clock }) => new SnowCover({ settings, stations, throttle, now: () => clock.now() }),
});
