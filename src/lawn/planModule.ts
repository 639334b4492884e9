/**
 * The week plan as a station unit module (src/station/unit.ts): its settings `plan.*` (./planSettings.ts)
 * and the unit (./planUnit.ts) with its state `plan`, its Home Assistant entities and its notification
 * topic. It owns no station key: the lawns come from the lawns module (`lawns`, ./lawnsModule.ts). Wired
 * in the composition root (src/daemon.ts) with the lawns, the lawn memory's growth and mower run shape,
 * the forecast's whole forecast rated (its week), and the mower control's lawn runs and Home Assistant services (plan.notifyService).
 */
import type { WeekForecastSource } from '../store/forecastStore.js';
import type { LawnPlanStore } from '../store/lawnPlanStore.js';
import type { LawnRuns } from '../store/mowerRunStore.js';
import type { StationUnit } from '../station/unit.js';
import { defineStationUnit } from '../station/unitModule.js';
import type { LawnMemoryOffer } from './buildLawnUnit.js';
import type { StationLawns } from './lawnsModule.js';
import type { NotifyConnection } from './planNotifier.js';
import { PlanUnit } from './planUnit.js';
import { planSchema, type PlanSettings } from './planSettings.js';

export interface PlanNeeds {
  readonly lawns: StationLawns;
  readonly memory: Pick<LawnMemoryOffer, 'lawnGrowth' | 'growthSettings' | 'mowerRun'>;
  readonly week: WeekForecastSource;
  /** Home Assistant's services (the mower control's connection, or the add-on's), for plan.notifyService. */
  readonly homeAssistant: NotifyConnection | undefined;
  /** The runs of each lawn (the mower control's, read only): minutes this week and per full cut. */
  readonly runs: LawnRuns | undefined;
  /** Each lawn's last plan in the database; none: no plan (a pipeline in memory). */
  readonly store: LawnPlanStore | undefined;
}

export const planModule = defineStationUnit<PlanSettings, undefined, StationUnit[], PlanNeeds>({
  name: 'plan',
  config: { settings: { key: 'plan', schema: planSchema } },
  everyStation: true,
  create: ({ settings, stations, log, clock, baseTopic, calculationContext }, { lawns, memory, week, homeAssistant, runs, store }) => {
    if (!settings.enabled || !store) return [];
    if (settings.notifyService !== '' && !homeAssistant)
      throw new Error(
        `plan.notifyService is "${settings.notifyService}" but there is no Home Assistant connection: it needs a station whose mower.control has kind "homeassistant" (with its url and mowerControl.homeAssistantToken), or the Home Assistant add-on (mowerControl.supervisorToken); add one, or set plan.notifyService (MOWABILITY_PLAN_NOTIFY_SERVICE) to "" to turn the notifications off`,
      );
    return [
      new PlanUnit({
        stations: stations.map((station) => ({ id: station.id, lawns: lawns.get(station.id) ?? [] })),
        settings,
        store,
        ...(runs && { runs }),
        logger: log,
        now: () => clock.now(),
        baseTopic,
        timeZone: calculationContext(0).timeZone,
        week,
        growth: memory.lawnGrowth,
        growthSettings: memory.growthSettings,
        mowerRun: memory.mowerRun,
        lawnProfile: (lawn) => lawn.lawn,
        ...(homeAssistant && { homeAssistant }),
      }),
    ];
  },
});
