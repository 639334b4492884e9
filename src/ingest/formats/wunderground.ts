/**
 * The Weather Underground upload protocol ("PWS upload", also sent by
 * Ambient Weather consoles and Ecowitt gateways set to "Wunderground"):
 * `GET /weatherstation/updateweatherstation.php?ID=..&PASSWORD=..&dateutc=..`
 * with imperial values (tempf, dewptf °F; windspeedmph mph; rainin, dailyrainin
 * inches; solarradiation W/m2; soilmoisture %). `dateutc` is UTC or "now".
 * `rainin` is the rain of the past 60 minutes, used as the rate (in/h) when
 * the station sends no `rainratein` (Ambient does). The rain counter is the
 * longest one sent: totalrainin (Ambient), yearlyrainin, else dailyrainin
 * (midnight at the station is a counter reset).
 */
import { ReadingBuilder } from '../builder.js';
import type { ParseOutcome, StationConfig } from '../types.js';
import { addCounter, addValues, finish, type UploadFields, type ValueKeys } from './ecowittHttp.js';

const VALUE_KEYS: ValueKeys = [
  ['temperature', ['tempf'], 'temperature'],
  ['humidity', ['humidity'], '%'],
  ['dew_point', ['dewptf'], 'temperature'],
  ['wind_speed', ['windspeedmph'], 'speed'],
  ['wind_gusts', ['windgustmph'], 'speed'],
  ['solar', ['solarradiation'], 'W/m2'],
  ['precipitation_rate', ['rainratein', 'rainin'], 'rate'],
  ['soil_temperature', ['soiltempf'], 'temperature'],
  ['soil_moisture', ['soilmoisture'], '%'],
];

const COUNTERS = ['totalrainin', 'yearlyrainin', 'dailyrainin'];

export function parseWundergroundUpload(station: StationConfig, fields: UploadFields): ParseOutcome {
  const builder = new ReadingBuilder();
  addValues(builder, station, fields, VALUE_KEYS);
  addCounter(builder, station, fields, COUNTERS);
  return finish(builder, fields);
}
