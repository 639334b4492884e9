/**
 * Entry point of ingest: one MQTT message for one station → a reading in the
 * API's units (src/core/fields.ts), or a reason to ignore/reject it. Pure: no I/O, no clock.
 */
import { parseEcowitt2mqtt } from './formats/ecowitt2mqtt.js';
import { parseEcowittUpload } from './formats/ecowittHttp.js';
import { formFields } from './formats/uploadFields.js';
import { parseFieldsFormat } from './formats/fields.js';
import { parseJsonFormat } from './formats/json.js';
import { parseRtl433 } from './formats/rtl433.js';
import { parseWeewx } from './formats/weewx.js';
import { parseWundergroundUpload } from './formats/wunderground.js';
import type { IngestContext } from './formats/context.js';
import type { ParseOutcome, StationConfig } from './types.js';

export type { IngestContext } from './formats/context.js';

export function parseStationMessage(station: StationConfig, topic: string, payload: string, context: IngestContext): ParseOutcome {
  if (payload.trim() === '') return { kind: 'ignored', reason: 'empty payload (retained message cleared)' };
  switch (station.format) {
    case 'rtl_433':
      return parseRtl433(station, payload, context);
    case 'ecowitt2mqtt':
      return parseEcowitt2mqtt(station, payload);
    case 'weewx':
      return parseWeewx(station, payload);
    case 'json':
      return parseJsonFormat(station, payload, context);
    case 'fields':
      return parseFieldsFormat(station, topic, payload);
    // Uploads normally arrive over HTTP (src/http/uploads.ts); a relay may forward the raw body or query string.
    case 'ecowitt-http':
      return parseEcowittUpload(station, formFields(payload));
    case 'wunderground':
      return parseWundergroundUpload(station, formFields(payload));
    // A modelled station's readings come from Open-Meteo (src/modelled/), never from a message.
    case 'open-meteo':
      return { kind: 'ignored', reason: 'a modelled station takes no messages' };
  }
}
