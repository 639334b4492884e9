/**
 * The response schema serialises every result; a field it does not declare is
 * silently dropped. These tests compare the HTTP result with the core's own
 * result for the same input and context, so a field lost (or coerced) on the
 * way to the client fails a test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { calculateWith } from '../../src/core/calculate.js';
import { CHECK_REGISTRY } from '../../src/core/checks/registry.js';
import type { CheckDefinition } from '../../src/core/checks/types.js';
import { calculate, type CalculationContext, type CalculationResult, type RawInput } from '../../src/core/index.js';
import type { Calculator } from '../../src/http/calculateRoute.js';
import { addKey, FIXED_NOW_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

/** All 17 fields of the spec, a plausible June afternoon after a light shower. */
const FULL_INPUT = {
  temperature: 21.5,
  precipitation_rate: 0,
  humidity: 62,
  wind_speed: 12,
  wind_gusts: 25,
  dew_point: 13.8,
  solar: 540,
  soil_temperature: 17.2,
  soil_moisture: 34,
  rain_1h: 0,
  rain_12h: 0.8,
  rain_24h: 2.4,
  rain_14d: 21,
  minutes_since_rain: 310,
  min_temp_3h: 19.4,
  min_temp_3d: 9.8,
  min_temp_14d: 6.1,
};

/** Only humidity besides the required fields: wind and soil checks are skipped. */
const SKIPPED_CHECKS_INPUT = { temperature: 16, precipitation_rate: 0.1, humidity: 88 };

/** Rain windows partly supplied, so rain_source_info lists what was and was not provided. */
const RAIN_WINDOWS_INPUT = { temperature: 14, precipitation_rate: 0, rain_1h: 0.4, rain_24h: 6, rain_14d: 40, minutes_since_rain: 45 };

/** The context the route builds from the harness configuration and its fixed clock. */
function contextOf(h: HttpHarness): CalculationContext {
  return {
    nowMs: FIXED_NOW_MS,
    timeZone: h.config.timezone,
    hemisphere: h.config.hemisphere,
    lawn: { soilType: h.config.lawn.soilType, mowerClass: h.config.lawn.mowerClass },
  };
}

function coreResult(calculator: Calculator, input: RawInput, context: CalculationContext): CalculationResult {
  const outcome = calculator(input, context);
  if (!outcome.ok) throw new Error(`core refused the input: ${outcome.error.message}`);
  // What a lossless JSON transport would deliver.
  return JSON.parse(JSON.stringify(outcome.result)) as CalculationResult;
}

async function postCalculate(
  h: HttpHarness,
  input: RawInput,
): Promise<{ statusCode: number; body: { status: string; mfi: CalculationResult; message: string } }> {
  const { key } = await addKey(h, 'fidelity');
  const response = await h.app.inject({
    method: 'POST',
    url: '/v1/calculate',
    headers: { authorization: `Bearer ${key}` },
    payload: input,
  });
  return { statusCode: response.statusCode, body: response.json() };
}

describe('the HTTP result is the core result, field for field', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const cases: Array<[string, RawInput, (result: CalculationResult) => void]> = [
    [
      'all 17 fields',
      FULL_INPUT,
      (result) => {
        expect(result.available_fields).toHaveLength(17);
        expect(result.score_basis.checks_used).toBe(5);
      },
    ],
    [
      'the minimal input (two required fields)',
      MINIMAL_INPUT,
      (result) => {
        expect(result.data_quality).toBe('minimal');
        expect(result.protocol.skipped_checks.length).toBeGreaterThan(0);
      },
    ],
    [
      'an input with skipped checks',
      SKIPPED_CHECKS_INPUT,
      (result) => {
        const skipped = Object.values(result.checks).filter((check) => check?.executed === false);
        expect(skipped.length).toBeGreaterThan(0);
        expect(skipped.every((check) => typeof check?.skipped_reason === 'string' && check.skipped_reason.length > 0)).toBe(true);
      },
    ],
    [
      'rain windows (rain_source_info)',
      RAIN_WINDOWS_INPUT,
      (result) => {
        expect(result.rain_source_info?.windows_used).toEqual(['rain_1h', 'rain_24h']);
        expect(result.rain_source_info?.not_provided).toEqual(['rain_12h']);
      },
    ],
    [
      'the minutes_since_irrigation extension (model 1.1): rated, but not one of the spec fields',
      { ...FULL_INPUT, minutes_since_irrigation: 30 },
      (result) => {
        expect(result.available_fields).toHaveLength(17);
        expect(result.available_fields).not.toContain('minutes_since_irrigation');
        expect(result.checks.rain?.meta.minutes_since_irrigation).toBe(30);
      },
    ],
    [
      'an out-of-range minutes_since_irrigation is ignored',
      { ...FULL_INPUT, minutes_since_irrigation: -5 },
      (result) => {
        expect(result.checks.rain?.meta.minutes_since_irrigation).toBeNull();
        expect(result.missing_fields).not.toContain('minutes_since_irrigation');
      },
    ],
  ];

  it.each(cases)('%s', async (_name, input, sanity) => {
    h = await startHttpHarness();
    const expected = coreResult(calculate, input, contextOf(h));
    // The case covers what its name says (otherwise the comparison below proves less than claimed).
    sanity(expected);
    const response = await postCalculate(h, input);
    expect(response.statusCode).toBe(200);
    // Both sides went through JSON, so no key holds undefined: toEqual misses nothing here.
    expect(response.body).toEqual({ status: 'ok', mfi: expected, message: '' });
  });

  it('a check that fails inside the core: calculation_error and its skipped_reason reach the client', async () => {
    const throwingSoil: CheckDefinition = {
      ...(CHECK_REGISTRY.find((check) => check.name === 'soiltemp') as CheckDefinition),
      evaluate() {
        throw new TypeError('internal detail that must stay internal');
      },
    };
    const registry = CHECK_REGISTRY.map((check) => (check.name === 'soiltemp' ? throwingSoil : check));
    const failing: Calculator = (input, context) => calculateWith(registry, input, context);
    h = await startHttpHarness({ overrides: { calculate: failing } });
    const expected = coreResult(failing, FULL_INPUT, contextOf(h));
    expect(expected.protocol.calculation_error).toBe("Check 'soiltemp' failed with an internal error (TypeError) and was not executed.");

    const response = await postCalculate(h, FULL_INPUT);
    expect(response.statusCode).toBe(200);
    expect(response.body.mfi).toEqual(expected);
    expect(response.body.mfi.protocol.calculation_error).toBe(expected.protocol.calculation_error);
    expect(response.body.mfi.checks.soiltemp).toMatchObject({ executed: false, status: null, score: null });
    expect(response.body.mfi.checks.soiltemp?.skipped_reason).toBe(expected.checks.soiltemp?.skipped_reason);
    expect(response.body.mfi.checks.soiltemp?.skipped_reason).toMatch(/internal/i);
    expect(JSON.stringify(response.body)).not.toContain('internal detail that must stay internal');
  });
});
