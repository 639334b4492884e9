/**
 * Mower control as a station unit module (docs/units.md; docs/mower.md is the owner's guide): one line in
 * stationUnits() (src/daemon.ts). It owns the `control` member of a station's `mower` object
 * (./controlConfig.ts), its settings (`mowerControl.*`), its tables (migration 013), and builds one
 * controller per station whose control is enabled. The glue to the unit contract is this file and
 * ./mowerControlUnit.ts; the controller, decision, ledger and adapters know nothing of it.
 */
import type { QuietHoursSettings } from '../core/lawn/quietHours.js';
import { defineStationUnit, type StationUnit } from '../station/unit.js';
import { isPlainObject } from '../ingest/stationConfig.js';
import { controlConfigOf, MOWER_CONTROL_STATION_KEY, type MowerControlConfig } from './controlConfig.js';
import { MOWER_CONTROL_SETTINGS, type MowerControlSettings } from './controlSettings.js';
import { MowerControlUnit, type ControlledStation, type RecordCut } from './mowerControlUnit.js';

/** What the composition root wires into the mower control (src/daemon.ts): the lawn memory's quiet hours and its cut recorder. */
export interface MowerControlNeeds {
  readonly quietHours: QuietHoursSettings | undefined;
  readonly recordCut: RecordCut;
}

export const mowerControlModule = defineStationUnit<MowerControlSettings, unknown, StationUnit[], MowerControlNeeds>({
  name: 'mower-control',
  config: { settings: { key: 'mowerControl', schema: MOWER_CONTROL_SETTINGS }, station: MOWER_CONTROL_STATION_KEY },
  create: ({ settings, stations, log, clock, baseTopic, calculationContext, store }, { quietHours, recordCut }) => {
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
        recordCut,
        quietHours,
      }),
    ];
  },
});

export type { MowerControlConfig };
