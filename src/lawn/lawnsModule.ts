/**
 * The lawns of each station as a module of its own (src/station/unit.ts): it owns the station key
 * `lawns` (./lawnsConfig.ts) and builds no unit; it offers every station's lawns, which the
 * composition root (src/daemon.ts) wires into the lawn memory (a cut history per lawn) and the
 * planner (a plan per lawn). Listed first, so every module after it can be wired with the lawns.
 */
import type { StationUnit } from '../station/unit.js';
import { defineStationUnit } from '../station/unitModule.js';
import { LAWNS_STATION_KEY, stationLawns, type LawnConfig, type StationLawn } from './lawnsConfig.js';

/** Every station's lawns, in configuration order (a station without `lawns`: its one lawn). */
export type StationLawns = ReadonlyMap<string, readonly StationLawn[]>;

export interface LawnsOffer {
  readonly lawns: StationLawns;
}

export const lawnsModule = defineStationUnit<undefined, LawnConfig[] | undefined, StationUnit[], undefined, LawnsOffer>({
  name: 'lawns',
  config: { station: LAWNS_STATION_KEY },
  everyStation: true,
  create: () => [],
  provides: (_units, { stations }) => ({
    lawns: new Map(stations.map((station) => [station.id, Object.freeze(stationLawns({ ...station, lawns: station.settings }))])),
  }),
});
