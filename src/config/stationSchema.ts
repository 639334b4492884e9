/**
 * Convict schema of the station side (src/station/): how readings become a station's state,
 * whatever transport brought them (MQTT, HTTP uploads, a modelled station). Part of
 * ./schema.ts. Five of these keys lived under `mqtt.` before the station side had its own
 * namespace; ./settingAliases.ts still reads them there and logs a deprecation line.
 */
import { percentThreshold } from './settingFormats.js';

export const stationSchema = {
  station: {
    recomputeDebounceMs: {
      doc: 'Wait this long after a reading before recomputing, so a burst of packets gives one state. Formerly mqtt.recomputeDebounceMs (still read, with a deprecation line in the log).',
      format: 'nat',
      default: 1000,
      env: 'MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS',
    },
    recomputeIntervalSeconds: {
      doc: 'Every station is recomputed (and the bridge stats published) this often, on the monotonic clock, so states age and hysteresis delays run out without new readings. Formerly mqtt.recomputeIntervalSeconds.',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_STATION_RECOMPUTE_INTERVAL_SECONDS',
    },
    mowableOnThreshold: {
      doc: 'mowable turns on once the index has stayed at or above this for station.mowableOnDelayMinutes. Formerly mqtt.mowableOnThreshold.',
      format: percentThreshold,
      default: 70,
      env: 'MOWABILITY_STATION_MOWABLE_ON_THRESHOLD',
    },
    mowableOffThreshold: {
      doc: 'mowable turns off at once when the index drops below this (or on BLOCK). Formerly mqtt.mowableOffThreshold.',
      format: percentThreshold,
      default: 60,
      env: 'MOWABILITY_STATION_MOWABLE_OFF_THRESHOLD',
    },
    mowableOnDelayMinutes: {
      doc: 'How long the index must stay at or above the on-threshold before mowable turns on. Formerly mqtt.mowableOnDelayMinutes.',
      format: 'nat',
      default: 15,
      env: 'MOWABILITY_STATION_MOWABLE_ON_DELAY_MINUTES',
    },
    maxPayloadBytes: {
      doc: 'Largest station payload (MQTT message or relayed upload) the station side parses, in bytes; a larger one is refused and counted, whatever the broker allowed (an external broker may allow more). 0: the value of broker.maxPayloadBytes.',
      format: 'nat',
      default: 0,
      env: 'MOWABILITY_STATION_MAX_PAYLOAD_BYTES',
    },
  },
};
