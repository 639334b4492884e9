/**
 * An Open-Meteo `/v1/forecast` answer (https://open-meteo.com/en/docs: `hourly` arrays named by the
 * request's variables, `timeformat=unixtime`, `timezone=GMT`) for the hours of a scripted week: from two
 * hours before `nowMs` to `days` days ahead, each hour's weather from `weatherAt`. Served by the
 * forecast tests' fake Open-Meteo as a body reply.
 */
export interface HourWeather {
  temperature: number;
  humidity: number;
  wind: number;
  /** Rain in the hour before the hour's time, mm. */
  rainMm: number;
  /** Probability of that rain, %. */
  probability: number;
  solar: number;
}

const HOUR_S = 3600;

export function weekForecastBody(nowMs: number, weatherAt: (hourMs: number) => HourWeather, days = 7): string {
  const nowS = Math.floor(nowMs / 1000);
  const first = nowS - (nowS % HOUR_S) - 2 * HOUR_S;
  const count = 2 + days * 24;
  const time = Array.from({ length: count }, (_, i) => first + i * HOUR_S);
  const weather = time.map((t) => weatherAt(t * 1000));
  const column = (pick: (w: HourWeather) => number) => weather.map(pick);
  return JSON.stringify({
    latitude: 48.14,
    longitude: 11.58,
    generationtime_ms: 0.5,
    utc_offset_seconds: 0,
    timezone: 'GMT',
    timezone_abbreviation: 'GMT',
    elevation: 520,
    hourly_units: { time: 'unixtime', temperature_2m: '°C', precipitation: 'mm' },
    hourly: {
      time,
      temperature_2m: column((w) => w.temperature),
      relative_humidity_2m: column((w) => w.humidity),
      dew_point_2m: column((w) => w.temperature - (100 - w.humidity) / 5),
      wind_speed_10m: column((w) => w.wind),
      wind_gusts_10m: column((w) => w.wind * 1.6),
      shortwave_radiation: column((w) => w.solar),
      soil_temperature_6cm: column((w) => w.temperature - 3),
      soil_moisture_3_to_9cm: column((w) => (w.rainMm > 0 ? 0.34 : 0.24)),
      precipitation: column((w) => w.rainMm),
      precipitation_probability: column((w) => w.probability),
    },
  });
}

/** Daylight radiation of a clear day at 48° N in June, W/m², by UTC hour (a sine from 04:00 to 20:00 UTC). */
export function clearSkySolar(hourMs: number): number {
  const hour = new Date(hourMs).getUTCHours();
  return hour <= 4 || hour >= 20 ? 0 : Math.round(850 * Math.sin(((hour - 4) / 16) * Math.PI));
}

/** A dry, mild June day: 14 °C at night to 24 °C in the afternoon, no rain. */
export function dryHour(hourMs: number): HourWeather {
  const hour = new Date(hourMs).getUTCHours();
  const temperature = 19 + 5 * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
  return { temperature, humidity: 55, wind: 8, rainMm: 0, probability: 0, solar: clearSkySolar(hourMs) };
}
