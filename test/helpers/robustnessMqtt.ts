/**
 * Hostile station payloads for the MQTT robustness suite, for every station
 * format: malformed, truncated, huge, wrongly typed, negative, out of range,
 * out-of-order and far-future/far-past timestamps, prototype keys, odd topics.
 */
import fc from 'fast-check';
import type { StationConfig } from '../../src/ingest/types.js';
import { payloadLines, payloadText } from './mqttPayloads.js';

/** One station per format, each on its own topic so a message reaches exactly one station. */
export const FUZZ_STATIONS: StationConfig[] = [
  { id: 'rtl', name: 'RTL', format: 'rtl_433', topic: 'fuzz/rtl/events', match: { model: 'Fineoffset-WH24' } },
  { id: 'eco', name: 'Eco', format: 'ecowitt2mqtt', topic: 'fuzz/eco' },
  { id: 'weewx', name: 'WeeWX', format: 'weewx', topic: 'fuzz/weewx/loop' },
  {
    id: 'diy',
    name: 'DIY',
    format: 'json',
    topic: 'fuzz/diy',
    fields: { temperature: 't', precipitation_rate: 'r', humidity: 'h', rain_total: 'rain' },
    timestampKey: 'ts',
  },
  { id: 'plain', name: 'Plain', format: 'fields', topic: 'fuzz/plain/+' },
];

export interface FuzzMessage {
  topic: string;
  payload: string | Buffer;
  kind: string;
}

function baseObjects(
  nowMs: number,
): Record<string, { topic: string; object: Record<string, unknown>; timeKey: string; time: (ms: number) => unknown }> {
  const rtl = JSON.parse(payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH24_g001.jsonl')[0] as string) as Record<string, unknown>;
  const eco = JSON.parse(payloadText('ecowitt2mqtt-published__topic-json__gw1000bpro.json')) as Record<string, unknown>;
  const loop = JSON.parse(payloadText('weewx-mqtt__kotori__vantagepro2_loop.json')) as Record<string, unknown>;
  return {
    rtl: { topic: 'fuzz/rtl/events', object: rtl, timeKey: 'time', time: (ms) => new Date(ms).toISOString() },
    eco: { topic: 'fuzz/eco', object: eco, timeKey: 'dateutc', time: (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ') },
    weewx: { topic: 'fuzz/weewx/loop', object: loop, timeKey: 'dateTime', time: (ms) => String(Math.floor(ms / 1000)) },
    diy: {
      topic: 'fuzz/diy',
      object: { t: 18.5, r: 0, h: 60, rain: 12.3, ts: Math.floor(nowMs / 1000) },
      timeKey: 'ts',
      time: (ms) => Math.floor(ms / 1000),
    },
  };
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, '', 'NaN', 'Infinity', '-Infinity', '1e999', '0x1F', ' 12 ', '12abc', '-9999', '١٨', '__proto__'),
  fc.constantFrom(-1, -1e308, 1e308, 5e-324, -0, Number.MAX_SAFE_INTEGER, -273.16, 100000, -50),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom([], [1, 2], {}, { value: 1 }, [[[]]]),
);

/** Timestamps a station might wrongly send, relative to the daemon's now. */
function hostileTimes(nowMs: number): fc.Arbitrary<number> {
  return fc.constantFrom(
    nowMs + 365 * 86_400_000 * 74, // far future (year ~2100)
    nowMs + 3 * 60_000, // just past the tolerated skew
    nowMs - 15 * 86_400_000, // older than the 14-day history
    nowMs - 10 * 60_000, // out of order: older than readings already seen
    0,
    -1,
  );
}

function serialise(object: Record<string, unknown>, mode: string): string | Buffer {
  const text = JSON.stringify(object);
  switch (mode) {
    case 'truncated':
      return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    case 'syslog-prefix':
      return `Nov 21 10:00:00 pi rtl_433[123]: ${text}`;
    case 'trailing-garbage':
      return `${text}}}{`;
    case 'array':
      return `[${text}]`;
    case 'binary':
      return Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x80, 0x81]);
    case 'huge':
      // Just under the embedded broker's 64 KiB payload limit: reaches the parser.
      return JSON.stringify({ ...object, padding: 'x'.repeat(60_000) });
    default:
      return text;
  }
}

/** A hostile message for one of the JSON-payload formats. */
function jsonFormatMessage(nowMs: number): fc.Arbitrary<FuzzMessage> {
  const bases = baseObjects(nowMs);
  return fc
    .record({
      format: fc.constantFrom('rtl', 'eco', 'weewx', 'diy'),
      mutations: fc.array(fc.tuple(fc.nat(), hostileValue), { maxLength: 4 }),
      dropKeys: fc.array(fc.nat(), { maxLength: 3 }),
      extra: fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', ''), hostileValue), { nil: undefined }),
      time: fc.option(hostileTimes(nowMs), { nil: undefined }),
      mode: fc.constantFrom('json', 'json', 'json', 'truncated', 'syslog-prefix', 'trailing-garbage', 'array', 'binary', 'huge'),
    })
    .map(({ format, mutations, dropKeys, extra, time, mode }) => {
      const base = bases[format] as NonNullable<ReturnType<typeof baseObjects>[string]>;
      const object: Record<string, unknown> = { ...base.object };
      const keys = Object.keys(object);
      for (const [index, value] of mutations) object[keys[index % keys.length] as string] = value;
      for (const index of dropKeys) delete object[keys[index % keys.length] as string];
      if (extra) Object.defineProperty(object, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
      if (time !== undefined) object[base.timeKey] = base.time(time);
      return { topic: base.topic, payload: serialise(object, mode), kind: `${format}:${mode}` };
    });
}

/** A hostile message for the one-number-per-topic format. */
const fieldsMessage: fc.Arbitrary<FuzzMessage> = fc
  .record({
    field: fc.constantFrom(
      'temperature',
      'precipitation_rate',
      'humidity',
      'wind_speed',
      'rain_total',
      'rain_delta',
      '__proto__',
      'constructor',
      'unknown',
      '',
      ' ',
    ),
    value: fc.oneof(
      fc.double().map(String),
      fc.constantFrom('-5', '-0.1', '1e308', 'NaN', 'abc', '{"v":1}', ' ', '12,5', '99999999'),
      fc.string({ maxLength: 20 }),
    ),
  })
  .map(({ field, value }) => ({ topic: `fuzz/plain/${field}`, payload: value, kind: 'plain' }));

export function hostileMessage(nowMs: number): fc.Arbitrary<FuzzMessage> {
  return fc.oneof({ arbitrary: jsonFormatMessage(nowMs), weight: 4 }, { arbitrary: fieldsMessage, weight: 1 });
}

/**
 * Payloads that every station must reject (never accept, never store),
 * paired with the topic of the station they are sent to.
 */
export function certainlyRejected(nowMs: number): FuzzMessage[] {
  const farFuture = nowMs + 74 * 365 * 86_400_000;
  const tooOld = nowMs - 15 * 86_400_000;
  const rtl = JSON.parse(payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH24_g001.jsonl')[0] as string) as Record<string, unknown>;
  return [
    { topic: 'fuzz/rtl/events', payload: 'not json at all', kind: 'rtl:garbage' },
    { topic: 'fuzz/rtl/events', payload: '{"model":', kind: 'rtl:truncated' },
    { topic: 'fuzz/rtl/events', payload: JSON.stringify({ ...rtl, time: new Date(farFuture).toISOString() }), kind: 'rtl:far-future' },
    { topic: 'fuzz/rtl/events', payload: JSON.stringify({ ...rtl, time: new Date(tooOld).toISOString() }), kind: 'rtl:too-old' },
    {
      topic: 'fuzz/rtl/events',
      payload: JSON.stringify({ model: 'Fineoffset-WH24', temperature_C: 'warm', humidity: -5, rain_mm: -3 }),
      kind: 'rtl:all-invalid',
    },
    { topic: 'fuzz/eco', payload: '[1,2,3]', kind: 'eco:array' },
    { topic: 'fuzz/eco', payload: Buffer.from([0xff, 0x00, 0xfe]), kind: 'eco:binary' },
    { topic: 'fuzz/weewx/loop', payload: '{"dateTime": "x", "outTemp_C": "hot"', kind: 'weewx:truncated' },
    { topic: 'fuzz/diy', payload: JSON.stringify({ t: 18, r: 0, ts: Math.floor(farFuture / 1000) }), kind: 'diy:far-future' },
    { topic: 'fuzz/diy', payload: JSON.stringify({ t: 18, r: 0, ts: 'yesterday' }), kind: 'diy:bad-time' },
    { topic: 'fuzz/diy', payload: JSON.stringify({ t: 'NaN', r: -1, h: 400, ts: Math.floor(nowMs / 1000) }), kind: 'diy:all-invalid' },
    { topic: 'fuzz/diy', payload: JSON.stringify({ t: 1e308, r: -1e308, ts: Math.floor(nowMs / 1000) }), kind: 'diy:extreme' },
    { topic: 'fuzz/plain/temperature', payload: 'NaN', kind: 'plain:nan' },
    { topic: 'fuzz/plain/humidity', payload: '-5', kind: 'plain:negative' },
    { topic: 'fuzz/plain/rain_total', payload: '-12', kind: 'plain:negative-rain' },
    { topic: 'fuzz/plain/precipitation_rate', payload: '1e308', kind: 'plain:huge' },
  ];
}
