/**
 * PASSKEY uploads: Ecowitt gateways' "Customized" upload in the Ecowitt
 * protocol (a form POST) and Ambient Weather consoles (AMBWeatherV4.x, a GET
 * with PASSKEY = the console's MAC): strings in imperial units (tempf °F,
 * windspeedmph mph, *rainin inches, solarradiation W/m2, soilmoistureN %).
 * `dateutc` is UTC (./uploadTime.ts). The current rain rate is the station's
 * own: `rainratein`, else `hourlyrainin` (Ambient sends no rainratein; its
 * hourlyrainin is the rain rate in in/h). Rain windows (hourly, daily, ...)
 * reset by the console's clock, so only one counter is used, the longest one
 * sent: totalrainin, else yearlyrainin (a new year is a counter reset), else
 * dailyrainin (midnight is a reset). A WS90/WS85 piezo gauge (`*_piezo`) is
 * read when no tipping bucket reports. Pure: fields in, reading out;
 * matching the PASSKEY is the HTTP side's job.
 */
import { ReadingBuilder } from '../builder.js';
import type { ParseOutcome, StationConfig } from '../types.js';
import { addCounter, addValues, finish, presentValue, type UploadFields, type ValueKeys } from './uploadFields.js';

const CHANNELS = [1, 2, 3, 4, 5, 6, 7, 8];

const VALUE_KEYS: ValueKeys = [
  ['temperature', ['tempf'], 'temperature'],
  ['humidity', ['humidity'], '%'],
  ['wind_speed', ['windspeedmph', 'windspdmph_avg10m'], 'speed'],
  ['wind_gusts', ['windgustmph'], 'speed'],
  ['solar', ['solarradiation'], 'W/m2'],
  // The lowest channel present: channel 1 unless the user numbered their sensors otherwise.
  ['soil_moisture', CHANNELS.map((n) => `soilmoisture${n}`), '%'],
  ['soil_temperature', CHANNELS.flatMap((n) => [`tf_ch${n}`, `soiltemp${n}f`]), 'temperature'],
];

/** One rain gauge: its rate keys and its counters, longest window first. */
const GAUGES = {
  bucket: { rates: ['rainratein', 'hourlyrainin'], counters: ['totalrainin', 'yearlyrainin', 'dailyrainin'] },
  piezo: { rates: ['rrain_piezo'], counters: ['yrain_piezo', 'drain_piezo'] },
} as const;

export function parseEcowittUpload(station: StationConfig, fields: UploadFields): ParseOutcome {
  const builder = new ReadingBuilder();
  addValues(builder, station, fields, VALUE_KEYS);
  const hasBucket = [...GAUGES.bucket.rates, ...GAUGES.bucket.counters].some((key) => presentValue(fields, key) !== undefined);
  const gauge = hasBucket ? GAUGES.bucket : GAUGES.piezo;
  addValues(builder, station, fields, [['precipitation_rate', gauge.rates, 'rate']]);
  addCounter(builder, station, fields, gauge.counters);
  return finish(builder, fields);
}
