/**
 * The state's text with the forecast's compact view spliced in (src/station/stateText.ts) is
 * `JSON.stringify` of the state, byte for byte: for random states built by the state payload from
 * real calculations (with and without a forecast, modelled stations, markup in reasons and
 * fragments, holds' public reasons after the forecast, unit errors) and for random objects around
 * marked values (every position, values JSON leaves out, integer keys, escapes).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, type ForecastHour } from '../../src/core/forecastProjection.js';
import { calculate, type CalculationInput } from '../../src/core/index.js';
import { buildForecastDetail, compactForecast, type ForecastView } from '../../src/forecast/forecastReport.js';
import { parseOpenMeteo } from '../../src/openmeteo/openMeteoResponse.js';
import { buildStatePayload } from '../../src/station/statePayload.js';
import { fixedJson, isFixedPlain, SPLICE_MIN_CHARS, stateText } from '../../src/station/stateText.js';

const NOW = Date.parse('2026-07-15T12:07:00Z');

function hours(name: string): ForecastHour[] {
  const parsed = parseOpenMeteo(JSON.parse(readFileSync(`test/fixtures/openMeteo/${name}.json`, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.reason);
  const firstEnd = Math.floor(NOW / HOUR_MS) * HOUR_MS + HOUR_MS;
  return parsed.hours.map((hour, i) => ({ ...hour, timeMs: firstEnd + i * HOUR_MS }));
}

const FIXTURES = ['dryDay', 'wetSpell', 'afternoonThunderstorm', 'frostyMorning'] as const;

/** The compact forecast a station's state carries (built as the forecast unit builds it). */
function forecastView(fixture: number, input: CalculationInput, available: boolean): ForecastView {
  const detail = buildForecastDetail({
    source: 'open-meteo',
    cached: available
      ? { source: 'open-meteo', fetchedAtMs: NOW - 600_000, hours: hours(FIXTURES[fixture] as string), validators: {} }
      : undefined,
    nowMs: NOW,
    staleAfterMs: 3 * HOUR_MS,
    minJobMinutes: 90,
    current: input,
    observed: { rainSince: () => 1.5, minTempSince: () => 6 },
    context: { nowMs: NOW, timeZone: 'Europe/Berlin', hemisphere: 'north' },
  });
  return compactForecast(detail);
}

const text = fc.oneof(fc.string(), fc.constantFrom('<b>nass</b>', 'index < 70', 'a "quoted" \\ path', 'ü\u2028\u0000', '\ud800'));

const stateCase = fc.record({
  temperature: fc.double({ min: -10, max: 38, noNaN: true }),
  humidity: fc.integer({ min: 5, max: 100 }),
  rain: fc.constantFrom(0, 0, 0.4, 6),
  withTemperature: fc.boolean(),
  forecast: fc.option(fc.record({ fixture: fc.integer({ min: 0, max: FIXTURES.length - 1 }), available: fc.boolean() }), {
    nil: undefined,
  }),
  modelled: fc.boolean(),
  lawnNote: fc.option(text, { nil: undefined }),
  publicReason: fc.option(text, { nil: undefined }),
  unitErrors: fc.boolean(),
  stationName: text,
  mowableReason: text,
});

describe('state text: the forecast spliced in', () => {
  it('equals JSON.stringify of random states built by the state payload', () => {
    fc.assert(
      fc.property(stateCase, (c) => {
        const input: CalculationInput = {
          humidity: c.humidity,
          precipitation_rate: c.rain,
          rain_14d: 12,
          ...(c.withTemperature ? { temperature: c.temperature } : {}),
        };
        const outcome = calculate(input, {
          nowMs: NOW,
          timeZone: 'Europe/Berlin',
          hemisphere: 'north',
          ...(c.modelled ? { estimatedFields: ['solar'] } : {}),
        });
        const fragments: Record<string, unknown> = {};
        if (c.lawnNote !== undefined) fragments.lawn = { note: c.lawnNote, cut: undefined, list: [c.lawnNote, 3] };
        if (c.modelled) Object.assign(fragments, { origin: 'modelled', estimated_fields: ['solar'] });
        if (c.forecast) fragments.forecast = forecastView(c.forecast.fixture, input, c.forecast.available);
        if (c.publicReason !== undefined)
          Object.assign(fragments, { mowable_reason_public: c.publicReason, mowable_reason_public_de: c.publicReason });
        if (c.unitErrors) fragments.unit_errors = [{ unit: 'lawn', hook: 'extendInput', message: c.mowableReason }];
        const state = buildStatePayload({
          stationId: 'garden',
          stationName: c.stationName,
          outcome,
          mowable: false,
          mowableReason: c.mowableReason,
          input,
          fragments,
          assembly: { input, withheld: {}, derived: [], coverage: { rain_14d: 0.5 }, lastReadingAtMs: NOW },
        });
        if (c.forecast) expect(isFixedPlain(state.forecast)).toBe(true);
        expect(stateText(state)).toBe(JSON.stringify(state));
      }),
      { numRuns: 80 },
    );
  });

  it('equals JSON.stringify with marked values at any position among members JSON leaves out, integer keys and escapes', () => {
    const member = fc.oneof(
      text,
      fc.integer(),
      fc.constant(undefined),
      fc.constant(null),
      fc.constant(() => 1),
      fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(undefined))),
      fc.array(fc.oneof(text, fc.constant(undefined))),
    );
    // Small marked values (the state goes the plain way) and large ones (their kept texts are spliced in).
    const pad = fc.constantFrom(0, 0, SPLICE_MIN_CHARS / 4, SPLICE_MIN_CHARS);
    const marked = fc
      .tuple(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.array(text))), pad)
      .map(([value, length]) => fixedJson(length > 0 ? { ...value, pad: 'x'.repeat(length) } : value));
    const key = fc.oneof(text, fc.constantFrom('forecast', '7', '0', 'toString', 'a"b'));
    const entries = fc.array(fc.tuple(key, fc.oneof(member, marked, marked)), { maxLength: 12 });
    fc.assert(
      fc.property(entries, (pairs) => {
        const state: Record<string, unknown> = {};
        for (const [k, v] of pairs) if (k !== '__proto__') state[k] = v;
        expect(stateText(state)).toBe(JSON.stringify(state));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the text of the first marking: a marked forecast is serialised once, not per state', () => {
    const view = forecastView(0, { temperature: 20, humidity: 50 }, true);
    let reads = 0;
    const counted = new Proxy(view, {
      get: (target, property, receiver) => (property === 'hours' && reads++, Reflect.get(target, property, receiver) as unknown),
    });
    fixedJson(counted);
    const before = reads;
    const state = { station: 'garden', forecast: counted, mowable_reason_public: 'x' };
    expect(stateText(state)).toBe(JSON.stringify({ ...state, forecast: view }));
    expect(reads).toBe(before);
  });

  it('leaves values with markup, values with their own toJSON and an own "__proto__" member to JSON.stringify', () => {
    const marked = fixedJson({ note: '<b>nass</b>' });
    expect(isFixedPlain(marked)).toBe(false);
    const withToJson = fixedJson({ toJSON: (key: string) => `as ${key}` });
    const state = { a: 1, withToJson, marked };
    expect(stateText(state)).toBe(JSON.stringify(state));
    const proto = JSON.parse('{"__proto__": {"x": 1}, "b": 2}') as Record<string, unknown>;
    proto.forecast = fixedJson({ y: 2, pad: 'x'.repeat(SPLICE_MIN_CHARS) });
    expect(stateText(proto)).toBe(JSON.stringify(proto));
  });

  it('splices kept texts only when they are long enough to pay: below SPLICE_MIN_CHARS one JSON.stringify of the state', () => {
    // A marked value changed after marking shows which way was taken (the kept text, or the value as it is now).
    const small = fixedJson({ pad: 'x'.repeat(SPLICE_MIN_CHARS - 20), n: 1 });
    const large = fixedJson({ pad: 'x'.repeat(SPLICE_MIN_CHARS), n: 1 });
    small.n = 2;
    large.n = 2;
    expect(stateText({ a: 1, small })).toBe(JSON.stringify({ a: 1, small }));
    expect(stateText({ a: 1, large })).toBe(JSON.stringify({ a: 1, large: { ...large, n: 1 } }));
    // Two members whose kept texts together reach the threshold are spliced.
    const half = (): { pad: string; n: number } => fixedJson({ pad: 'x'.repeat(SPLICE_MIN_CHARS / 2), n: 1 });
    const [first, second] = [half(), half()];
    first.n = 2;
    expect(stateText({ first, second })).toBe(JSON.stringify({ first: { ...first, n: 1 }, second }));
  });
});
