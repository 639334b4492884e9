/** The MQTT forecast topic's JSON: HA's weather.get_forecasts shape and our aliases; anything else is refused with a reason. */
import { describe, expect, it } from 'vitest';
import { MAX_FORECAST_ENTRIES, MAX_FORECAST_PAYLOAD_BYTES, parseForecastPayload } from '../../src/forecast/mqttForecast.js';

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('parseForecastPayload', () => {
  it("reads Home Assistant's forecast entries; each names the hour it starts", () => {
    const parsed = parseForecastPayload(
      json({
        forecast: [
          {
            datetime: '2026-06-15T14:00:00+02:00',
            condition: 'rainy',
            temperature: 21.5,
            humidity: 60,
            dew_point: 12.9,
            wind_speed: 11,
            wind_gust_speed: 25,
            precipitation: 0.4,
            precipitation_probability: 30,
          },
        ],
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      hours: [
        {
          timeMs: Date.parse('2026-06-15T13:00:00Z'),
          values: { temperature: 21.5, humidity: 60, dew_point: 12.9, wind_speed: 11, wind_gusts: 25 },
          precipitationMm: 0.4,
          precipitationProbabilityPct: 30,
        },
      ],
    });
  });

  it('accepts hourly/time (Unix seconds) and the optional extras', () => {
    const parsed = parseForecastPayload(
      json({ hourly: [{ time: 1781532000, temperature: 10, wind_gusts: 30, solar: 300, soil_temperature: 9, soil_moisture: 31 }] }),
    );
    expect(parsed).toMatchObject({
      ok: true,
      hours: [{ timeMs: 1781535600000, values: { temperature: 10, wind_gusts: 30, solar: 300, soil_temperature: 9, soil_moisture: 31 } }],
    });
  });

  it('takes the raw weather.get_forecasts response keyed by the entity id, as a user pastes it', () => {
    const entry = { datetime: '2026-06-15T14:00:00+02:00', condition: 'sunny', temperature: 21.5, precipitation: 0 };
    const parsed = parseForecastPayload(
      json({ 'weather.home': { forecast: [entry, { ...entry, datetime: '2026-06-15T15:00:00+02:00' }] } }),
    );
    expect(parsed).toMatchObject({
      ok: true,
      hours: [
        { timeMs: Date.parse('2026-06-15T13:00:00Z'), values: { temperature: 21.5 } },
        { timeMs: Date.parse('2026-06-15T14:00:00Z') },
      ],
    });
    expect(parseForecastPayload(json({ 'weather.home': { forecast: [entry] }, 'weather.work': { forecast: [entry] } }))).toEqual({
      ok: false,
      reason: 'the response holds forecasts of 2 entities (weather.home, weather.work); publish one',
    });
    expect(parseForecastPayload(json({ 'weather.home': { forecast: [] } }))).toEqual({
      ok: false,
      reason: 'no "forecast" (or "hourly") list of entries',
    });
    expect(parseForecastPayload(json({ home: { forecast: [entry] } }))).toEqual({
      ok: false,
      reason: 'no "forecast" (or "hourly") list of entries',
    });
  });

  it('leaves out values that are not numbers', () => {
    const parsed = parseForecastPayload(
      json({ forecast: [{ datetime: '2026-06-15T14:00:00Z', temperature: '21', humidity: null, precipitation: -1 }] }),
    );
    expect(parsed).toMatchObject({ ok: true, hours: [{ values: {}, precipitationMm: 0 }] });
  });

  it.each([
    ['not JSON', Buffer.from('{"forecast": ['), 'not valid JSON'],
    ['a list', json([]), 'not a JSON object'],
    ['no entries', json({ forecast: [] }), 'no "forecast" (or "hourly") list of entries'],
    [
      'an entry without a time',
      json({ forecast: [{ temperature: 3 }] }),
      'entry 0 has no "datetime" (ISO 8601 with offset, or Unix seconds)',
    ],
    [
      'a date without a time of day',
      json({ forecast: [{ datetime: '2026-06-15' }] }),
      'entry 0 has no "datetime" (ISO 8601 with offset, or Unix seconds)',
    ],
    ['an entry that is not an object', json({ forecast: [3] }), 'entry 0 is not an object'],
    [
      'too many entries',
      json({ forecast: Array.from({ length: MAX_FORECAST_ENTRIES + 1 }, (_, i) => ({ time: i * 3600 })) }),
      `more than ${MAX_FORECAST_ENTRIES} entries`,
    ],
    ['too many bytes', Buffer.alloc(MAX_FORECAST_PAYLOAD_BYTES + 1, 32), `larger than ${MAX_FORECAST_PAYLOAD_BYTES} bytes`],
  ])('refuses %s', (_what, payload, reason) => {
    expect(parseForecastPayload(payload)).toEqual({ ok: false, reason });
  });
});
