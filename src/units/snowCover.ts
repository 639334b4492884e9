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
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import { HttpError } from '../util/httpError.js';
import { toNumber } from '../ingest/units.js';
import { parseTopicPayload, topicStationKey, TopicSubscriptions, type TopicFeed, type TopicStationSettings } from '../station/topicUnit.js';
import type { MowableHold, StationUnit, UnitSubscriber } from '../station/unit.js';
import { defineStationUnit, type UnitStation } from '../station/unitModule.js';
import type { UnitRoute } from '../station/unitRoute.js';
import type { LogThrottle } from '../util/logThrottle.js';

/** A station's `snow`: the topic carrying the snow depth (cm) or a yes/no, and the JSON key holding it. */
export type SnowStationSettings = TopicStationSettings;

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

/** The snow topic as a feed (src/station/topicUnit.ts: size cap, parsing, counters, the refusal's log line). */
export const SNOW_FEED: TopicFeed<SnowReport> = {
  name: 'snow',
  maxPayloadBytes: MAX_SNOW_PAYLOAD_BYTES,
  defaultKey: DEFAULT_SNOW_KEY,
  fromValue,
  expected: (key) =>
    `a depth in cm (0 to ${MAX_SNOW_DEPTH_CM}), ON/OFF, true/false, yes/no or a JSON object with "${key}" holding one of them`,
};

/** `12.5` (cm), `ON`/`OFF`, `true`/`false`, `yes`/`no`, or a JSON object whose `key` holds one of them. */
export function parseSnowPayload(text: string, key: string = DEFAULT_SNOW_KEY): SnowReport | undefined {
  return parseTopicPayload(SNOW_FEED, text, key);
}

/** What the state (`snow`) and the route show of a station's snow cover. */
export interface SnowStatus {
  topic: string;
  /** null until the first value arrived. */
  lying: boolean | null;
  depth_cm: number | null;
  updated_at: string | null;
}

/** The station key `snow` and its validation. */
const SNOW_STATION_KEY = topicStationKey({
  key: 'snow',
  exampleKey: 'depth',
  topicDoes: 'carries the snow depth in cm or a yes/no',
  topicRequired: 'the MQTT topic carrying the snow depth in cm or a yes/no (e.g. "garden/snow_depth")',
  keyHolds: 'the depth or yes/no',
  wildcards: false,
});

const SNOW_SETTINGS = {
  minDepthCm: {
    doc: 'Snow cover (docs/units.md): the depth in cm from which snow reported on a station\'s "snow.topic" counts as lying and holds "mowable" off. A yes/no report is taken as it is.',
    format: (value: unknown) => {
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_SNOW_DEPTH_CM)
        throw new Error(`must be a number of cm above 0 and at most ${MAX_SNOW_DEPTH_CM}`);
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
  readonly metrics = {
    snowReceived: ['snow_messages_received_total', "Messages on the stations' snow topics."],
    snowRejected: ['snow_messages_rejected_total', 'Snow messages refused (not a depth in cm or a yes/no, too large).'],
  } as const;
  readonly routes: readonly UnitRoute[];
  readonly #topics: TopicSubscriptions<SnowReport>;
  readonly #known = new Map<string, Known>();
  readonly #minDepthCm: number;

  constructor(options: {
    stations: readonly UnitStation<SnowStationSettings>[];
    settings: SnowCoverSettings;
    throttle: LogThrottle;
    now: () => number;
  }) {
    // A retained value counts like a live one: snow is a state, and the broker replays the last one.
    this.#topics = new TopicSubscriptions(SNOW_FEED, options.stations, options.throttle, (stationId, _topic, report) => {
      this.#known.set(stationId, { report, atMs: options.now() });
      return true;
    });
    this.#minDepthCm = options.settings.minDepthCm;
    this.routes = snowRoutes(this);
  }

  /** Received, accepted and refused snow messages. */
  get counters(): Readonly<Record<string, number>> {
    return this.#topics.counters;
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#topics.subscribe(connection, recompute);
  }

  /** One message on a station's snow topic; true when the station's state changes. */
  handle(stationId: string, payload: Buffer, topic = this.#topics.settingsOf(stationId)?.topic ?? ''): boolean {
    return this.#topics.handle(stationId, topic, payload, false);
  }

  status(stationId: string): SnowStatus | undefined {
    const settings = this.#topics.settingsOf(stationId);
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
    return {
      code: SNOW_HOLD_CODE,
      reason: {
        en: `snow is lying${depth('en-GB')}: do not mow until it has thawed`,
        de: `Schnee liegt${depth('de-DE')}: nicht mähen, bis er getaut ist`,
      },
    };
  }

  entities(station: { id: string }): EntitySpec[] {
    if (!this.#topics.settingsOf(station.id)) return [];
    const has = 'value_json.snow is defined and value_json.snow.lying is not none';
    return [
      {
        component: 'binary_sensor',
        key: 'snow_cover',
        config: {
          name: 'Snow cover',
          icon: 'mdi:snowflake',
          payload_on: 'ON',
          payload_off: 'OFF',
          value_template: `{{ ('ON' if value_json.snow.lying else 'OFF') if ${has} else None }}`,
        },
      },
    ];
  }

  stats(): Readonly<Record<string, number>> {
    return this.counters;
  }
}

/** GET /v1/stations/{id}/snow (the /v1 scope asks for the API key first). */
function snowRoutes(unit: SnowCover): readonly UnitRoute[] {
  return [
    {
      url: '/stations/:id/snow',
      schema: {
        summary: "A station's snow cover: the last value of its snow topic",
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' } } },
        security: [{ bearerAuth: [] }, { apiKeyQuery: [] }],
      },
      answer: ({ params }) => {
        const status = unit.status(params.id ?? '');
        if (!status) throw new HttpError(404, 'Unknown station, or the station has no "snow" setting.');
        return { status: 'ok', station: params.id, snow: status };
      },
    },
  ];
}

/** The snow cover unit: one line in stationUnits() (src/daemon.ts) plugs it in. */
export const snowCoverUnit = defineStationUnit<SnowCoverSettings, SnowStationSettings>({
  name: 'snow-cover',
  config: { settings: { key: 'snowCover', schema: SNOW_SETTINGS }, station: SNOW_STATION_KEY },
  create: ({ settings, stations, throttle, clock }) => new SnowCover({ settings, stations, throttle, now: () => clock.now() }),
});

/** The state key this module owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The station's snow cover (stations with `snow`). */
    snow: SnowStatus;
  }
}
