/**
 * Mower control as a station unit module (docs/units.md; docs/mower.md is the owner's guide): one line in
 * stationUnits() (src/daemon.ts). It owns the `control` member of a station's `mower` object
 * (./controlConfig.ts), its settings (`mowerControl.*`), its tables (migration 013), and builds one
 * controller per station whose control is enabled. The glue to the unit contract is this file and
 * ./mowerControlUnit.ts; the controller, decision, ledger and adapters know nothing of it.
 */
import { defineStationUnit, quietHoursService, type StationUnit } from '../station/unit.js';
import { cutRecorderService, stationStatesService } from '../station/mowerServices.js';
import { isPlainObject } from '../ingest/stationConfig.js';
import { controlConfigOf, MOWER_CONTROL_STATION_KEY, type MowerControlConfig } from './controlConfig.js';
import { MowerControlUnit, type ControlledStation } from './mowerControlUnit.js';

export interface MowerControlSettings {
  tickSeconds: number;
  homeAssistantToken: string;
}

export const MOWER_CONTROL_SETTINGS = {
  tickSeconds: {
    doc: 'Mower control (docs/mower.md): how often, in seconds, each controlled mower\'s decision is asked again besides on every change the mower reports (and when unconfirmed commands are retried).',
    format: (value: unknown) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 600) throw new Error('must be a whole number of seconds from 1 to 600');
    },
    default: 30,
    env: 'MOWABILITY_MOWER_CONTROL_TICK_SECONDS',
  },
  homeAssistantToken: {
    doc: 'Mower control (docs/mower.md): Home Assistant\'s long-lived access token for mowers of kind "homeassistant" (Profile → Security → Long-lived access tokens). Set it by environment or a systemd credential, never in the config file. Inside the Home Assistant add-on the Supervisor\'s token is used and this stays empty.',
    format: (value: unknown) => {
      if (typeof value !== 'string' || value.length > 4096 || /\s/.test(value)) throw new Error('must be the token as Home Assistant shows it (no spaces, up to 4096 characters)');
    },
    default: '',
    env: 'MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN',
    sensitive: true,
  },
};

export const mowerControlModule = defineStationUnit<MowerControlSettings, unknown, StationUnit[]>({
  name: 'mower-control',
  config: { settings: { key: 'mowerControl', schema: MOWER_CONTROL_SETTINGS }, station: MOWER_CONTROL_STATION_KEY },
  create: ({ settings, stations, log, clock, baseTopic, calculationContext, store, use }) => {
    const controlled: ControlledStation[] = stations.flatMap(({ id, location, settings: mower }) => {
      const control = isPlainObject(mower) && isPlainObject(mower.control) ? controlConfigOf(mower.control, id) : undefined;
      return control?.enabled ? [{ id, control, ...(location && { location }) }] : [];
    });
    // Off by default: without an enabled block (or a database for the ledger) nothing is built, nothing used.
    if (controlled.length === 0 || !store) return [];
    return [
      new MowerControlUnit({
        stations: controlled,
        settings,
        store,
        log,
        clock,
        baseTopic,
        timeZone: calculationContext(0).timeZone,
        states: use(stationStatesService),
        recordCut: use(cutRecorderService),
        quietHours: use(quietHoursService),
      }),
    ];
  },
});

export type { MowerControlConfig };
