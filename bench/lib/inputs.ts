/**
 * Deterministic, realistic calculation inputs: plausible weather with the
 * usual mix of full and partial station data and an occasional out-of-range
 * value (which the service ignores), as stations really send.
 */

/** mulberry32: tiny seeded PRNG so every run uses the same inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

export function realisticInputs(count: number, seed = 20261121): Record<string, number>[] {
  const random = seededRandom(seed);
  const between = (min: number, max: number): number => min + (max - min) * random();
  const inputs: Record<string, number>[] = [];
  for (let i = 0; i < count; i++) {
    const temperature = round1(between(-5, 34));
    const raining = random() < 0.2;
    const rain1h = raining ? round1(between(0.1, 8)) : random() < 0.3 ? round1(between(0, 1)) : 0;
    const rain12h = round1(rain1h + between(0, 10));
    const rain24h = round1(rain12h + between(0, 12));
    const full: Record<string, number> = {
      temperature,
      precipitation_rate: raining ? round1(between(0.1, 12)) : 0,
      humidity: round1(between(30, 100)),
      wind_speed: round1(between(0, 35)),
      wind_gusts: round1(between(5, 70)),
      dew_point: round1(temperature - between(0, 15)),
      solar: round1(between(0, 950)),
      soil_temperature: round1(between(0, 25)),
      soil_moisture: round1(between(10, 60)),
      rain_1h: rain1h,
      rain_12h: rain12h,
      rain_24h: rain24h,
      rain_14d: round1(rain24h + between(0, 80)),
      minutes_since_rain: raining ? 0 : Math.round(between(30, 6000)),
      min_temp_3h: round1(temperature - between(0, 4)),
      min_temp_3d: round1(temperature - between(2, 10)),
      min_temp_14d: round1(temperature - between(4, 15)),
    };
    const input: Record<string, number> = {};
    const keepOptional = random() < 0.5 ? 1 : 0.6;
    for (const [name, value] of Object.entries(full)) {
      const required = name === 'temperature' || name === 'precipitation_rate';
      if (required || random() < keepOptional) input[name] = value;
    }
    if (random() < 0.05) input.humidity = 140; // out of range: ignored by the service, listed in missing_fields
    inputs.push(input);
  }
  return inputs;
}

/** One complete, valid input (all 17 fields): the body every POST route of the HTTP benchmark receives. */
export const FULL_INPUT: Readonly<Record<string, number>> = {
  temperature: 18.4,
  precipitation_rate: 0,
  humidity: 62,
  wind_speed: 11.2,
  wind_gusts: 24.5,
  dew_point: 10.9,
  solar: 540,
  soil_temperature: 14.1,
  soil_moisture: 31,
  rain_1h: 0,
  rain_12h: 0.4,
  rain_24h: 2.1,
  rain_14d: 38.6,
  minutes_since_rain: 790,
  min_temp_3h: 16.9,
  min_temp_3d: 8.2,
  min_temp_14d: 4.7,
};

export const HTTP_BENCH_BODY = JSON.stringify(FULL_INPUT);

/** A syntactically valid API key nobody was given: same prefix and length as `key`. */
export function wrongKeyLike(key: string): string {
  const [prefix] = key.split('_');
  return `${prefix}_${'x'.repeat(key.length - (prefix?.length ?? 0) - 1)}`;
}
