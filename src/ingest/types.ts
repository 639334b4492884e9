/**
 * What a station payload becomes after parsing: values already in the API's
 * units, plus rain information in one of three shapes and an optional
 * payload timestamp. Parsing is pure; time plausibility is decided later
 * against the arrival time (./time.ts).
 */
import type { MowerClass, SoilType, TurfType } from '../core/types.js';

/** Current-value fields a station can deliver directly (spec names and units). */
export const CURRENT_FIELDS = [
  'temperature',
  'precipitation_rate',
  'humidity',
  'wind_speed',
  'wind_gusts',
  'dew_point',
  'solar',
  'soil_temperature',
  'soil_moisture',
] as const;
export type CurrentField = (typeof CURRENT_FIELDS)[number];

/** Pseudo fields for rain amounts, accepted by the `json` and `fields` formats. */
export const RAIN_INPUT_FIELDS = ['rain_total', 'rain_delta'] as const;
export type RainInputField = (typeof RAIN_INPUT_FIELDS)[number];
export type InputField = CurrentField | RainInputField;

export interface RainCounter {
  /** Identifies one physical counter (e.g. model/channel/id/key); a new key starts a new baseline. */
  key: string;
  /** Lifetime total in mm; resets on battery change or wrap. */
  totalMm: number;
}

export interface Reading {
  values: Partial<Record<CurrentField, number>>;
  /** Lifetime counters, turned into increments by the history. */
  rainCounters: RainCounter[];
  /** Rain since the previous packet (WeeWX `rain`), in mm. */
  rainDeltaMm?: number;
  /** Payload timestamp, epoch ms, when the payload carries a usable one. */
  payloadTimeMs?: number;
  /** Content fingerprint without timestamps/sequence numbers: repeated radio packets share it. */
  fingerprint: string;
  /** Values dropped as implausible or unparseable, with the reason, for counting and logs. */
  dropped: string[];
}

export type ParseOutcome =
  | { kind: 'reading'; reading: Reading }
  /** Valid message that is not for this station (a neighbour's sensor, a non-matching model). */
  | { kind: 'ignored'; reason: string }
  | { kind: 'rejected'; reason: string };

export type StationFormat = 'rtl_433' | 'ecowitt2mqtt' | 'weewx' | 'json' | 'fields' | UploadFormat | typeof MODELLED_FORMAT;
/** A modelled station: no hardware, its readings come from Open-Meteo for its `location` (src/modelled/). */
export const MODELLED_FORMAT = 'open-meteo';
/** Stations that send straight to our HTTP server (src/http/uploads.ts); `topic` is optional for them. */
export type UploadFormat = 'ecowitt-http' | 'wunderground';
export const UPLOAD_FORMATS: readonly UploadFormat[] = ['ecowitt-http', 'wunderground'];
export const STATION_FORMATS: readonly StationFormat[] = [
  'rtl_433',
  'ecowitt2mqtt',
  'weewx',
  'json',
  'fields',
  ...UPLOAD_FORMATS,
  MODELLED_FORMAT,
];

export function isUploadFormat(format: string): format is UploadFormat {
  return (UPLOAD_FORMATS as readonly string[]).includes(format);
}

/**
 * How an upload names its station. Only SHA-256 digests (lowercase hex) are configured:
 * `mowability upload-secret` prints the line to paste.
 */
export interface UploadConfig {
  /** ecowitt-http: SHA-256 of the gateway's PASSKEY. */
  passkeySha256?: string;
  /** wunderground: the station ID the station sends (not secret) and the SHA-256 of its PASSWORD. */
  stationId?: string;
  passwordSha256?: string;
}

export interface JsonFieldMapping {
  key: string;
  unit?: string;
}

/** WGS 84 position of a station; `elevation` in metres above sea level (optional). */
export interface StationLocation {
  latitude: number;
  longitude: number;
  elevation?: number;
}

export interface StationConfig {
  id: string;
  name: string;
  format: StationFormat;
  /** Upload formats without a configured topic get uploadRelayTopic(id) at load (src/ingest/uploadStations.ts). */
  topic: string;
  /** ecowitt-http / wunderground: how uploads are matched to this station. */
  upload?: UploadConfig;
  /** rtl_433: model/id/channel/subtype filter; json: key → expected value. */
  match?: Record<string, string | number | Array<string | number>>;
  /** 'metric' | 'imperial' (ecowitt2mqtt, weewx without unit labels) or field → unit. */
  units?: 'metric' | 'imperial' | Partial<Record<InputField, string>>;
  /** `json`: our field → payload key (with unit); `fields`: topic → our field. */
  fields?: Record<string, string | JsonFieldMapping>;
  /** `json`: payload key holding the timestamp (ISO 8601 or Unix seconds/ms). */
  timestampKey?: string;
  /** Overrides the configured lawn profile for this station, key by key. */
  lawn?: { soilType?: SoilType; mowerClass?: MowerClass; turfType?: TurfType; fieldCapacityPercent?: number };
  /** Where the station stands (WGS 84 degrees): for sunrise/sunset and forecasts. */
  location?: StationLocation;
  freshness?: { maxAgeMinutes?: number; fields?: Partial<Record<CurrentField, number>> };
  /** Fields the station does not measure, filled from Open-Meteo at its `location` (src/modelled/gapFill.ts). */
  gapFill?: GapFillConfig;
}

/**
 * The value of the key a station unit owns in the station object (e.g. `irrigation`; src/station/unit.ts):
 * not part of StationConfig, since the unit declares and validates it (UnitStationKey) when the config loads.
 */
export function unitSliceOf(station: StationConfig, key: string): unknown {
  return Object.hasOwn(station, key) ? (station as unknown as Readonly<Record<string, unknown>>)[key] : undefined;
}

/** The fields gap filling may fill (what stations most often lack). */
export const GAP_FILL_FIELDS = ['soil_moisture', 'soil_temperature', 'solar', 'wind_gusts'] as const satisfies readonly CurrentField[];
export type GapFillField = (typeof GAP_FILL_FIELDS)[number];

export interface GapFillConfig {
  source: 'open-meteo';
  /** Default: all of GAP_FILL_FIELDS. A field the station measures is never filled. */
  fields?: GapFillField[];
  /** Where rain comes from (default "gauge"); "model": the gauge is known broken, the model's rain replaces it (src/modelled/gapFill.ts). */
  rain?: RainSource;
}

export const RAIN_SOURCES = ['gauge', 'model'] as const;
export type RainSource = (typeof RAIN_SOURCES)[number];
