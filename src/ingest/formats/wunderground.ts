/**
 * The Weather Underground upload protocol ("PWS upload"), as Fine Offset
 * "observer" consoles, WeatherLink, Ambient (set to Wunderground) and Ecowitt
 * gateways send it: `GET /weatherstation/updateweatherstation.php` (or
 * `.asp`) `?ID=..&PASSWORD=..&dateutc=..` with imperial values (tempf,
 * dewptf °F; windspeedmph mph; rainin, dailyrainin inches; solarradiation
 * W/m2; soilmoisture %). `dateutc` is UTC or "now" (./uploadTime.ts).
 *
 * HP1000, HP1001 and WH2600 consoles ("customized", metric firmware such as
 * HP1001 V2.2.2 and Weather logger V2.1.9) send the same request with their
 * own names, always metric: outtemp, dewpoint °C; outhumi %; windspeed,
 * windgust km/h; rainrate mm/h; dailyrain ... yearlyrain mm; light lux
 * (solar W/m2 = lux / 126.7). A missing sensor is -9999 in either family.
 *
 * The current rain rate is the station's own: rainratein (Ambient),
 * rainrate, hourlyrainin, else rainin (the rain of the past 60 minutes, an
 * hourly rate). The rain counter is the longest one sent: totalrainin
 * (Ambient), yearlyrainin / yearlyrain, else dailyrainin / dailyrain
 * (midnight at the station is a counter reset).
 */
import { ReadingBuilder } from '../builder.js';
import type { ParseOutcome, StationConfig } from '../types.js';
import { addCounter, addValues, finish, type CounterKey, type UploadFields, type ValueKeys } from './uploadFields.js';

const VALUE_KEYS: ValueKeys = [
  ['temperature', ['tempf'], 'temperature'],
  ['temperature', ['outtemp'], 'temperature', 'metric'],
  ['humidity', ['humidity', 'outhumi'], '%'],
  ['dew_point', ['dewptf'], 'temperature'],
  ['dew_point', ['dewpoint'], 'temperature', 'metric'],
  ['wind_speed', ['windspeedmph'], 'speed'],
  ['wind_speed', ['windspeed'], 'speed', 'metric'],
  ['wind_gusts', ['windgustmph'], 'speed'],
  ['wind_gusts', ['windgust'], 'speed', 'metric'],
  ['solar', ['solarradiation'], 'W/m2'],
  ['solar', ['light'], 'lux'],
  ['precipitation_rate', ['rainratein'], 'rate'],
  ['precipitation_rate', ['rainrate'], 'rate', 'metric'],
  ['precipitation_rate', ['hourlyrainin', 'rainin'], 'rate'],
  ['soil_temperature', ['soiltempf'], 'temperature'],
  ['soil_moisture', ['soilmoisture'], '%'],
];

const COUNTERS: readonly CounterKey[] = ['totalrainin', 'yearlyrainin', ['yearlyrain', 'metric'], 'dailyrainin', ['dailyrain', 'metric']];

export function parseWundergroundUpload(station: StationConfig, fields: UploadFields): ParseOutcome {
  const builder = new ReadingBuilder();
  addValues(builder, station, fields, VALUE_KEYS);
  addCounter(builder, station, fields, COUNTERS);
  return finish(builder, fields);
}
