/**
 * Mower control as a station unit module (docs/units.md; docs/mower.md is the owner's guide): one line in
 * stationUnits() (src/daemon.ts). It owns the `control` member of a station's `mower` object
 * (./controlConfig.ts), its settings (`mowerControl.*`), its tables (migration 013), and builds one
 * controller per station whose control is enabled. The glue to the unit contract is this file and
 * ./mowerControlUnit.ts; the controller, decision, ledger and adapters know nothing of it.
 */
import type { QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { StationUnit } from '../station/unit.js';
import { defineStationUnit } from '../station/unitModule.js';
import type { LawnRuns, MowerRunStore } from '../store/mowerRunStore.js';
import { isPlainObject } from '../ingest/stationConfig.js';
import { controlConfigOf, MOWER_CONTROL_STATION_KEY, type MowerControlConfig } from './controlConfig.js';
import { MOWER_CONTROL_SETTINGS, type MowerControlSettings } from './controlSettings.js';
import { homeAssistantEndpoint, HomeAssistantMower } from './homeAssistantMower.js';
import { MowerControlUnit, type ControlledLawn, type RecordCut } from './mowerControlUnit.js';

/** A station's lawns as the lawns module offers them (src/lawn/lawnsModule.ts): the first is the station's `mower` block's. */
export type MowerLawns = ReadonlyMap<string, ReadonlyArray<{ readonly id: string; readonly name: string; readonly mower?: unknown }>>;

/** What the composition root wires into the mower control (src/daemon.ts): its store, the lawn memory's quiet hours and its cut recorder, the lawns. */
export interface MowerControlNeeds {
  readonly quietHours: QuietHoursSettings | undefined;
  readonly recordCut: RecordCut;
  /** The runs, calls and switches of its lawns; none: no mower control (a pipeline in memory). */
  readonly store: MowerRunStore | undefined;
  /** Every station's lawns; absent: each station has its one lawn. */
  readonly lawns?: MowerLawns;
}

/**
 * Home Assistant's service calls for other modules (the plan's `notify.*`): `open`/`close` only on a
 * connection of the caller's own (the add-on's, without a Home Assistant mower); the mower's is the mower control's.
 */
export interface HomeAssistantServices {
  /** Where it goes, for messages (never the token). */
  readonly shownAs: string;
  callService(domain: string, service: string, serviceData: Record<string, unknown>): Promise<void>;
  problem(): string | undefined;
  open?(): Promise<void>;
  close?(): Promise<void>;
}

/** What the mower control offers: Home Assistant's services through its connection, or the add-on's (undefined: neither), and its lawns' runs. */
export interface MowerControlOffer {
  readonly homeAssistant: HomeAssistantServices | undefined;
  /** The runs of a lawn, read only (the week plan's minutes this week and per full cut); undefined without a store. */
  readonly runs: LawnRuns | undefined;
}

export const mowerControlModule = defineStationUnit<MowerControlSettings, unknown, StationUnit[], MowerControlNeeds, MowerControlOffer>({
  name: 'mower-control',
  config: { settings: { key: 'mowerControl', schema: MOWER_CONTROL_SETTINGS }, station: MOWER_CONTROL_STATION_KEY },
  // A station's only mower may be a further lawn's (no `mower` key of its own).
  everyStation: true,
  create: ({ settings, stations, log, clock, baseTopic, calculationContext }, { quietHours, recordCut, store, lawns }) => {
    const controlled = stations.flatMap((station) => controlledLawns(station, lawns?.get(station.id)));
    // Off by default: without an enabled block (or a database for the ledger) nothing is built, nothing used.
    if (controlled.length === 0 || !store) return [];
    return [
      new MowerControlUnit({
        lawns: controlled,
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
  provides: (units, { settings, log }, { store }) => {
    // Read only, and also while the control is off: the runs of an earlier season still count for the plan.
    const runs: LawnRuns | undefined = store && { figures: (lawnId, weekStartMs) => store.figures(lawnId, weekStartMs) };
    const mower = units.length > 0 ? (units[0] as MowerControlUnit).homeAssistant() : undefined;
    if (mower) return { homeAssistant: servicesOf(mower, mower.shownAs, false), runs };
    // In the add-on, without a Home Assistant mower: a connection of the caller's own through the Supervisor's proxy.
    const endpoint = homeAssistantEndpoint('', settings);
    if (!endpoint) return { homeAssistant: undefined, runs };
    const connection = new HomeAssistantMower(
      { url: '', entity: '', startService: 'lawn_mower.start_mowing', startData: {} },
      endpoint,
      log,
    );
    return { homeAssistant: servicesOf(connection, endpoint.shownAs, true), runs };
  },
});

/**
 * The enabled controls of one station's lawns: the first lawn's from the station's `mower` block (else
 * its own), its topics under the station's id (today's); a further lawn's under its own id.
 */
function controlledLawns(
  station: { id: string; name: string; settings: unknown; location?: ControlledLawn['location'] },
  lawns: ReadonlyArray<{ readonly id: string; readonly name: string; readonly mower?: unknown }> | undefined,
): ControlledLawn[] {
  const list = lawns && lawns.length > 0 ? lawns : [{ id: station.id, name: station.name }];
  return list.flatMap((lawn, index) => {
    const primary = index === 0;
    const mower = primary ? (station.settings ?? lawn.mower) : lawn.mower;
    const topicId = primary ? station.id : lawn.id;
    // The ledger's key is the lawn's id (the planner reads the lawn's runs by it); without `lawns` the station's id, as before.
    const control = isPlainObject(mower) && isPlainObject(mower.control) ? controlConfigOf(mower.control, lawn.id) : undefined;
    if (!control?.enabled) return [];
    return [{ stationId: station.id, id: topicId, name: lawn.name, control, ...(station.location && { location: station.location }) }];
  });
}

function servicesOf(connection: HomeAssistantMower, shownAs: string, own: boolean): HomeAssistantServices {
  return {
    shownAs,
    callService: (domain, service, data) => connection.callService(domain, service, data),
    problem: () => connection.problem(),
    ...(own && { open: () => connection.open(), close: () => connection.close() }),
  };
}

export type { MowerControlConfig };
