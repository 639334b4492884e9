/**
 * The week plan as a station unit module (src/station/unit.ts): its settings `plan.*` (./planSettings.ts)
 * and the unit (./planUnit.ts) with its state `plan`, its Home Assistant entities and its notification
 * topic. It owns no station key: the lawns come from the lawns module (`lawns`, ./lawnsModule.ts). Wired
 * in the composition root (src/daemon.ts) with the lawns, the lawn memory's growth and mower run shape,
 * and the forecast's whole forecast rated (its week).
 */
import type { WeekForecastSource } from '../store/forecastStore.js';
import { defineStationUnit, type StationUnit } from '../station/unit.js';
import type { LawnMemoryOffer } from './buildLawnUnit.js';
import type { StationLawns } from './lawnsModule.js';
import { PlanUnit } from './planUnit.js';
import { planSchema, type PlanSettings } from './planSettings.js';

export interface PlanNeeds {
  readonly lawns: StationLawns;
  readonly memory: Pick<LawnMemoryOffer, 'lawnGrowth' | 'growthSettings' | 'mowerRun'>;
  readonly week: WeekForecastSource;
}

export const planModule = defineStationUnit<PlanSettings, undefined, StationUnit[], PlanNeeds>({
  name: 'plan',
  config: { settings: { key: 'plan', schema: planSchema } },
  everyStation: true,
  create: ({ settings, stations, log, clock, baseTopic, calculationContext, store }, { lawns, memory, week }) => {
    if (!settings.enabled || !store) return [];
    return [
      new PlanUnit({
        stations: stations.map((station) => ({ id: station.id, lawns: lawns.get(station.id) ?? [] })),
        settings,
        database: store,
        logger: log,
        now: () => clock.now(),
        baseTopic,
        timeZone: calculationContext(0).timeZone,
        week,
        growth: memory.lawnGrowth,
        growthSettings: memory.growthSettings,
        mowerRun: memory.mowerRun,
        lawnProfile: (lawn) => lawn.lawn,
      }),
    ];
  },
});
