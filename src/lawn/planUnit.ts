/**
 * The week plan as a station unit: for each lawn of a station with a forecast, the planner of
 * src/core/plan/ (need, debt, slots, status) over the whole forecast, re-planned only when its inputs
 * change — a new forecast, a cut or completed run, the ledger's minutes, the hour (the hours' ratings,
 * and so a slot's band, move with it) — never per reading. The state's `plan` is built once per
 * re-plan and serialised once; the changes go to `<base>/<lawn>/plan/changed` (not retained, only when
 * there are any). Each plan is kept in lawn_plans, so its slots keep their ids and sequence numbers
 * across a restart and the next plan is made against it (stability). With `plan.notifyService`, each
 * changed plan is also one Home Assistant notify call (./planNotifier.ts), never awaited by the planner.
 */
import type { Logger } from 'pino';
import { degreeDaysPerDay, lawnNeed, mowerCapacity } from '../core/plan/need.js';
import { mowingDebt } from '../core/plan/debt.js';
import { planLawn, type PlanMower } from '../core/plan/planner.js';
import type { LawnPlan } from '../core/plan/types.js';
import { weekSpan } from '../core/plan/week.js';
import type { LawnProfile } from '../core/types.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { StationConfig } from '../ingest/types.js';
import type { StationUnit, UnitSubscriber } from '../station/unit.js';
import { fixedJson } from '../station/stateText.js';
import type { WeekForecastSource } from '../store/forecastStore.js';
import type { LawnPlanStore } from '../store/lawnPlanStore.js';
import type { LawnRunFigures, LawnRuns } from '../store/mowerRunStore.js';
import type { LawnGrowth } from './lawnUnit.js';
import type { StationLawn } from './lawnsConfig.js';
import { mowerRunOf } from './mowerConfig.js';
import { planEntities } from './planEntities.js';
import { PlanNotifier, type NotifyConnection, type PlanNotifyState } from './planNotifier.js';
import type { PlanSettings } from './planSettings.js';
import { restorePlan } from './storedPlan.js';

const HOUR_MS = 3_600_000;

/** The topic level under `<base>/<lawn>/` of the plan's notifications. */
export const PLAN_CHANGED_LEVEL = 'plan/changed';

/** The next planned slot of a lawn, as Home Assistant's timestamp sensors read it. */
export interface NextSlot {
  start: string;
  end: string;
}

/** The state's `plan`: each lawn's plan, and its next slot not yet ended (null: none planned). */
export interface StationPlanState {
  lawns: Record<string, LawnPlan>;
  next: Record<string, NextSlot | null>;
  /** With plan.notifyService: the Home Assistant notifications sent and failed. */
  notify?: PlanNotifyState;
}

export interface PlanStation {
  readonly id: string;
  readonly lawns: readonly StationLawn[];
}

export interface PlanUnitOptions {
  readonly stations: readonly PlanStation[];
  readonly settings: PlanSettings;
  /** Each lawn's last plan (src/store/lawnPlanStore.ts). */
  readonly store: LawnPlanStore;
  /** The mower control's runs of each lawn, read only; absent: none (zero minutes, no learned capacity). */
  readonly runs?: LawnRuns;
  readonly logger: Logger;
  readonly now: () => number;
  readonly baseTopic: string;
  readonly timeZone: string;
  readonly week: WeekForecastSource;
  readonly growth: (stationId: string, lawnId: string) => LawnGrowth | undefined;
  readonly growthSettings: { readonly cutHeightCm: number; readonly growthFactor: number };
  readonly mowerRun: (stationId: string) => { readonly runMinutes?: number; readonly minGapHours?: number } | undefined;
  /** A lawn's profile keys over the station's (its `lawn`), for rating the hours. */
  readonly lawnProfile: (lawn: StationLawn) => Partial<LawnProfile> | undefined;
  /** Home Assistant's services for plan.notifyService (set: the module checked there is a connection). */
  readonly homeAssistant?: NotifyConnection;
}

interface Planned {
  readonly station: PlanStation;
  /** The inputs of the last plan; a different key is a re-plan. */
  key: string;
  /** Which slots had ended when the view was built; a different one rebuilds the view (not the plan). */
  viewKey: string;
  view: StationPlanState | undefined;
  ledgerVersion: number;
}

export type PlanCounters = {
  planRuns: number;
  planChangesPublished: number;
  planSaves: number;
  planFailures: number;
  planNotifications: number;
  planNotifyFailures: number;
};

export class PlanUnit implements StationUnit {
  readonly name = 'plan';
  readonly counters: PlanCounters = {
    planRuns: 0,
    planChangesPublished: 0,
    planSaves: 0,
    planFailures: 0,
    planNotifications: 0,
    planNotifyFailures: 0,
  };
  readonly metrics = {
    planRuns: ['plan_runs_total', 'Week plans made (each on a new forecast, cut, ledger change or hour).'],
    planFailures: ['plan_failures_total', 'Week plans that could not be saved.'],
    planNotifications: [
      'plan_notifications_total',
      'Home Assistant notify calls for changed plans that went through (plan.notifyService).',
    ],
    planNotifyFailures: ['plan_notify_failures_total', 'Home Assistant notify calls for changed plans that were refused or not answered.'],
  } as const;
  readonly #options: PlanUnitOptions;
  readonly #store: LawnPlanStore;
  readonly #log: Logger;
  readonly #stations = new Map<string, Planned>();
  readonly #plans = new Map<string, LawnPlan>();
  readonly #ledger = new Map<string, LawnRunFigures>();
  readonly #unsaved = new Map<string, string>();
  readonly #writes = new Set<Promise<void>>();
  #connection: UnitSubscriber | undefined;
  #recompute: ((stationId: string) => void) | undefined;
  readonly #notifier: PlanNotifier | undefined;
  /** Bumped when the notifications' state changes: the view is rebuilt. */
  #notifyVersion = 0;

  constructor(options: PlanUnitOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#log = options.logger.child({ module: 'plan' });
    for (const station of options.stations)
      this.#stations.set(station.id, { station, key: '', viewKey: '', view: undefined, ledgerVersion: 0 });
    const { homeAssistant, settings } = options;
    if (homeAssistant && settings.notifyService !== '')
      this.#notifier = new PlanNotifier({
        connection: homeAssistant,
        service: settings.notifyService,
        language: settings.notifyLanguage,
        log: this.#log,
        now: options.now,
        onChange: (notified) => {
          this.counters.planNotifications = notified.sent;
          this.counters.planNotifyFailures = notified.failed;
          this.#notifyVersion++;
          for (const stationId of this.#stations.keys()) this.#recompute?.(stationId);
        },
      });
  }

  async start(): Promise<void> {
    if (this.#stations.size === 0) return;
    await this.#notifier?.open();
    const stored = await this.#store.loadPlans();
    const nowMs = this.#options.now();
    for (const planned of this.#stations.values()) {
      for (const lawn of planned.station.lawns) {
        const plan = restorePlan(stored.get(lawn.id), lawn.id);
        if (plan) this.#plans.set(lawn.id, plan);
      }
      await this.#readLedger(planned, nowMs);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#writes);
    await this.#save();
    await this.#notifier?.close();
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#connection = connection;
    this.#recompute = recompute;
  }

  /** The lawn's current plan (undefined before its station's first forecast). */
  plan(lawnId: string): LawnPlan | undefined {
    return this.#plans.get(lawnId);
  }

  stateFragment(stationId: string, nowMs: number): { plan: StationPlanState } | undefined {
    const planned = this.#stations.get(stationId);
    if (!planned) return undefined;
    // No forecast yet (none fetched since a start without a cached one, or none configured): nothing to re-plan
    // from. A plan kept from before the restart still stands until the first re-plan, so the mower control keeps
    // to its slots rather than starting as if there were no planner; a lawn never planned has no plan (as without one).
    if (this.#options.week.fetchedAtMs(stationId) !== undefined) {
      const key = this.#inputKey(planned, nowMs);
      if (key !== planned.key) {
        planned.key = key;
        this.#replan(planned, nowMs);
        planned.view = undefined;
        void this.#readLedger(planned, nowMs, true);
      }
    }
    const slotsEnded = planned.station.lawns.map((lawn) => nextSlotIndex(this.#plans.get(lawn.id), nowMs));
    const viewKey = [...slotsEnded, this.#notifyVersion].join(',');
    if (planned.view === undefined || viewKey !== planned.viewKey) {
      planned.viewKey = viewKey;
      planned.view = this.#view(planned, nowMs);
    }
    return Object.keys(planned.view.lawns).length === 0 ? undefined : { plan: planned.view };
  }

  entities(station: StationConfig): EntitySpec[] {
    const planned = this.#stations.get(station.id);
    if (!planned) return [];
    const stateTopic = `${this.#options.baseTopic}/${station.id}/state`;
    return planned.station.lawns.flatMap((lawn) => planEntities(stateTopic, lawn));
  }

  stats(): Readonly<PlanCounters> {
    return this.counters;
  }

  /** What a re-plan depends on, cheap to compare on every recompute. */
  #inputKey(planned: Planned, nowMs: number): string {
    const stationId = planned.station.id;
    const cuts = planned.station.lawns.map((lawn) => this.#options.growth(stationId, lawn.id)?.lastCutMs ?? 'none');
    return [this.#options.week.fetchedAtMs(stationId), Math.floor(nowMs / HOUR_MS), planned.ledgerVersion, ...cuts].join('|');
  }

  #mower(stationId: string, lawn: StationLawn): PlanMower {
    const { settings } = this.#options;
    // A lawn with a mower of its own (a further lawn's block, or the first lawn's in place of the station's) plans with its run shape.
    const own = lawn.mower && (lawn.primary ? undefined : mowerRunOf(lawn.mower));
    const run = own ?? this.#options.mowerRun(stationId) ?? (lawn.primary && lawn.mower ? mowerRunOf(lawn.mower) : undefined);
    return {
      runMinutes: run?.runMinutes ?? settings.runMinutes,
      minRunMinutes: Math.min(settings.minRunMinutes, run?.runMinutes ?? settings.runMinutes),
      gapMinutes: run?.minGapHours === undefined ? settings.gapMinutes : run.minGapHours * 60,
      chargeMinutes: settings.chargeMinutes,
    };
  }

  #replan(planned: Planned, nowMs: number): void {
    const { timeZone, growthSettings } = this.#options;
    const stationId = planned.station.id;
    for (const lawn of planned.station.lawns) {
      const forecast = this.#options.week.rate(stationId, nowMs, this.#options.lawnProfile(lawn));
      if (!forecast) continue;
      const growth = this.#options.growth(stationId, lawn.id);
      const ledger = this.#ledger.get(lawn.id);
      const capacity = mowerCapacity({
        ...(lawn.areaM2 !== undefined && { areaM2: lawn.areaM2 }),
        ...(lawn.capacityM2PerHour !== undefined && { capacityM2PerHour: lawn.capacityM2PerHour }),
        completedFullCutMinutes: ledger?.completedRunMinutes ?? [],
      });
      const need = lawnNeed({
        nowMs,
        timeZone,
        targetHeightMm: lawn.targetHeightMm ?? growthSettings.cutHeightCm * 10,
        growthFactor: growthSettings.growthFactor,
        gddSinceCut: growth?.gddSinceCut ?? null,
        degreeDaysPerDay: growth ? degreeDaysPerDay(growth.memory, nowMs) : 0,
        capacity,
      });
      const plan = planLawn({
        lawnId: lawn.id,
        nowMs,
        timeZone,
        hours: forecast.hours,
        ...(forecast.allowedAt && { allowedAt: forecast.allowedAt }),
        rainLeadMinutes: forecast.rainLeadMinutes,
        need,
        debt: mowingDebt(need),
        mownMinutesThisWeek: ledger?.mownMinutesThisWeek ?? 0,
        mower: this.#mower(stationId, lawn),
        previous: this.#plans.get(lawn.id) ?? null,
      });
      this.counters.planRuns++;
      const first = !this.#plans.has(lawn.id);
      this.#plans.set(lawn.id, plan);
      if (plan.changes.length > 0 || first) this.#unsaved.set(lawn.id, stationId);
      if (plan.changes.length > 0) {
        this.#publishChanges(plan);
        this.#notifier?.notify(plan, lawn.name);
      }
    }
    if (this.#unsaved.size > 0) this.#saveSoon();
  }

  #publishChanges(plan: LawnPlan): void {
    const topic = `${this.#options.baseTopic}/${plan.lawnId}/${PLAN_CHANGED_LEVEL}`;
    const sent = this.#connection?.publishNow?.(topic, JSON.stringify({ lawn: plan.lawnId, changes: plan.changes, plan }), {
      retain: false,
    });
    if (sent) this.counters.planChangesPublished++;
  }

  #view(planned: Planned, nowMs: number): StationPlanState {
    const lawns: Record<string, LawnPlan> = {};
    const next: Record<string, NextSlot | null> = {};
    for (const lawn of planned.station.lawns) {
      const plan = this.#plans.get(lawn.id);
      if (!plan) continue;
      lawns[lawn.id] = plan;
      const slot = plan.slots[nextSlotIndex(plan, nowMs)];
      next[lawn.id] = slot ? { start: new Date(slot.startMs).toISOString(), end: new Date(slot.endMs).toISOString() } : null;
    }
    // Built anew on each re-plan and never changed: serialised once for every state until the next.
    return fixedJson({ lawns, next, ...(this.#notifier && { notify: this.#notifier.state() }) });
  }

  /** Reads the run ledger's figures of the station's lawns; with `recompute`, asks for a recompute when they changed. */
  async #readLedger(planned: Planned, nowMs: number, recompute = false): Promise<void> {
    const runs = this.#options.runs;
    if (!runs) return;
    const weekStartMs = weekSpan(nowMs, this.#options.timeZone).startMs;
    let changed = false;
    try {
      for (const lawn of planned.station.lawns) {
        const figures = await runs.figures(lawn.id, weekStartMs);
        const known = this.#ledger.get(lawn.id);
        if (known && JSON.stringify(known) === JSON.stringify(figures)) continue;
        this.#ledger.set(lawn.id, figures);
        changed = true;
      }
    } catch (err) {
      // Without the mower control's tables' rows the figures stay as they were (none: zero minutes, no learned capacity).
      this.#log.warn({ err, station: planned.station.id }, 'reading the mower run ledger for the plan failed');
      return;
    }
    if (changed && recompute) {
      planned.ledgerVersion++;
      this.#recompute?.(planned.station.id);
    }
  }

  #saveSoon(): void {
    const write = this.#save().finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  async #save(): Promise<void> {
    const rows = [...this.#unsaved].flatMap(([lawnId, station]) => {
      const plan = this.#plans.get(lawnId);
      return plan ? [{ station, plan }] : [];
    });
    if (rows.length === 0) return;
    this.#unsaved.clear();
    try {
      await this.#store.savePlans(rows, this.#options.now());
      this.counters.planSaves++;
    } catch (err) {
      this.counters.planFailures++;
      for (const row of rows) this.#unsaved.set(row.plan.lawnId, row.station);
      this.#log.error({ err }, 'saving the week plan failed; retrying at the next change');
    }
  }
}

/** The index of the first slot not yet ended (the slots' length when none is left). */
function nextSlotIndex(plan: LawnPlan | undefined, nowMs: number): number {
  if (!plan) return -1;
  const index = plan.slots.findIndex((slot) => slot.endMs > nowMs);
  return index === -1 ? plan.slots.length : index;
}

/** The state key this unit owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The week plan of each lawn of the station (src/core/plan/types.ts), and each lawn's next slot. */
    plan: StationPlanState;
  }
}
