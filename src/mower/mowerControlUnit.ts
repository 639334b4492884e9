/**
 * The station unit over the mower controllers (./controller.ts), one per lawn whose `mower.control`
 * is enabled: it builds each one's adapter and ledger, asks the decisions on a timer, hands the MQTT
 * adapters the broker connection, listens on the command topics of the "Automatic mowing" switch and
 * the "Mow now" / "Dock now" buttons, publishes the switch's retained state and every event, and shows
 * each controller's status in the station's state and on its route.
 *
 * A lawn's mower lives under `<base>/<L>/mower/...`: L is the station id for the station's first lawn
 * (today's topics, state field `mower_control`, entities and route), the lawn's id for a further lawn
 * (state field `mower_control_lawns[<lawn>]`, entity keys `<lawn>_...` on the station's device). Each
 * lawn has its own ledger rows, plan and cuts; one lawn's failing mower shows as that lawn's problem only.
 */
import type { Logger } from 'pino';
import type { DecisionReason } from '../core/mower/decision.js';
import { QuietHoursTimeline } from '../core/forecastQuietHours.js';
import { quietCauseText, type QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { StationLocation } from '../ingest/types.js';
import type { StationStatePayload } from '../station/statePayload.js';
import type { StationUnit, UnitSubscriber } from '../station/unit.js';
import type { MowerRunStore } from '../store/mowerRunStore.js';
import type { Clock } from '../util/clock.js';
import type { ClockStep } from '../util/clockWatch.js';
import { guarded } from '../util/guarded.js';
import type { MowerAdapter } from './adapter.js';
import type { MowerControlConfig } from './controlConfig.js';
import { MowerController, type MowerControlStatus, type MowerEvent } from './controller.js';
import { homeAssistantEndpoint, HomeAssistantMower } from './homeAssistantMower.js';
import { mowerControlEntities, mowerTopics } from './mowerEntities.js';
import type { MowerControlSettings } from './controlSettings.js';
import { mowerRoutes } from './mowerRoute.js';
import { GenericMqttMower, OpenMower } from './mqttMowers.js';
import { RunLedger } from './runLedger.js';
import { planOfState } from './planOfState.js';
import { stationViewOf } from './stationView.js';

/** One lawn's mower control. */
export interface ControlledLawn {
  /** The topic level of its mower (`<base>/<id>/mower/...`): the station's id for its first lawn, else the lawn's id. */
  id: string;
  /** The station whose readings decide for it; default `id` (the station's first lawn). */
  stationId?: string;
  /** The lawn's name (the page's card, the entities' names); default `id`. */
  name?: string;
  control: MowerControlConfig;
  location?: StationLocation;
}

export interface MowerControlOptions {
  lawns: readonly ControlledLawn[];
  settings: MowerControlSettings;
  /** Each lawn's runs, calls and switch (src/store/mowerRunStore.ts), under its run ledger. */
  store: MowerRunStore;
  log: Logger;
  clock: Clock;
  baseTopic: string;
  timeZone: string;
  recordCut: RecordCut;
  quietHours: QuietHoursSettings | undefined;
  /** Builds a lawn's adapter (tests hand in simulators); default (or undefined): by kind. */
  adapterFor?: (lawn: ControlledLawn) => MowerAdapter | undefined;
}

/** Records a cut in the lawn memory (its last cut and growth reset); `lawnId` a further lawn's; false when it is not newer or the lawn memory is off. */
export type RecordCut = (stationId: string, atMs: number, source: string, lawnId?: string) => boolean;

/** A further lawn's mower control in the station's state, by lawn id (the first lawn's stays `mower_control`). */
export type MowerControlLawns = Record<string, MowerControlStatus & { name: string }>;

const stationOf = (lawn: ControlledLawn): string => lawn.stationId ?? lawn.id;
const isPrimary = (lawn: ControlledLawn): boolean => stationOf(lawn) === lawn.id;

/** The cut source of runs the ledger completed (the state's `lawn.last_cut_source`). */
export const MOWER_CONTROL_CUT_SOURCE = 'mower-control';

export class MowerControlUnit implements StationUnit {
  readonly name = 'mower-control';
  readonly routes;
  readonly #options: MowerControlOptions;
  /** By lawn topic id (the station's id for its first lawn). */
  readonly #controllers = new Map<string, MowerController>();
  readonly #adapters = new Map<string, MowerAdapter>();
  readonly #lawns = new Map<string, ControlledLawn>();
  /** Each station's controlled lawns, its first lawn first. */
  readonly #byStation = new Map<string, ControlledLawn[]>();
  readonly #timeline: QuietHoursTimeline | undefined;
  /** Each controlled station's newest state, as the pipeline computed it (onState): what its decision reads. */
  readonly #latest = new Map<string, Readonly<StationStatePayload>>();
  /** When the unit was built: the decisions wait for a first state at most staleMinutes from here. */
  readonly #startedAtMs: number;
  #connection: UnitSubscriber | undefined;
  #recompute: ((stationId: string) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #clockSteppedAtMs: number | null = null;
  /** The switch state last published retained per station. */
  readonly #automaticSent = new Map<string, boolean>();
  readonly counters = { mowerCommands: 0, mowerAlerts: 0 };
  readonly metrics = {
    mowerCommands: ['mower_commands_total', 'Commands sent to robot mowers (retries included) by the mower control'],
    mowerAlerts: ['mower_alerts_total', 'Mower control alerts: unconfirmed commands, spent API budgets'],
  } as const;

  constructor(options: MowerControlOptions) {
    this.#options = options;
    this.#startedAtMs = options.clock.now();
    this.#timeline = options.quietHours && new QuietHoursTimeline(options.quietHours);
    for (const lawn of options.lawns) {
      const adapter = options.adapterFor?.(lawn) ?? this.#adapterOf(lawn);
      this.#lawns.set(lawn.id, lawn);
      const list = this.#byStation.get(stationOf(lawn)) ?? [];
      this.#byStation.set(stationOf(lawn), isPrimary(lawn) ? [lawn, ...list] : [...list, lawn]);
      this.#adapters.set(lawn.id, adapter);
      this.#controllers.set(lawn.id, this.#controllerOf(lawn, adapter));
    }
    this.routes = mowerRoutes(
      (stationId, lawnId) => this.#routed(stationId, lawnId),
      () => options.clock.now(),
    );
  }

  /** The route's controller: a station's first lawn's, or with `lawnId` that lawn's (of this station). */
  #routed(stationId: string, lawnId: string | undefined): MowerController | undefined {
    const lawn = this.#lawns.get(lawnId ?? stationId);
    return lawn && stationOf(lawn) === stationId ? this.#controllers.get(lawn.id) : undefined;
  }

  #adapterOf(lawn: ControlledLawn): MowerAdapter {
    const { control } = lawn;
    if (control.kind === 'homeassistant')
      return new HomeAssistantMower(
        control.homeassistant!,
        homeAssistantEndpoint(control.homeassistant!.url, this.#options.settings),
        this.#options.log,
      );
    if (control.kind === 'openmower') return new OpenMower(control.openmower!);
    return new GenericMqttMower(control.mqtt!);
  }

  #controllerOf(lawn: ControlledLawn, adapter: MowerAdapter): MowerController {
    const { clock, log, timeZone, store } = this.#options;
    const stationId = stationOf(lawn);
    const primary = isPrimary(lawn);
    return new MowerController({
      stationId,
      config: lawn.control,
      adapter,
      ledger: new RunLedger({ store, lawn: lawn.control.lawn, station: stationId, timeZone }),
      now: () => clock.now(),
      log: primary ? log : log.child({ lawn: lawn.id }),
      timeZone,
      // The station's readings decide for each of its lawns; the plan is the lawn's own (a further lawn never follows another's).
      station: () => stationViewOf(this.#latest.get(stationId)),
      startedAtMs: this.#startedAtMs,
      firstStateSeen: () => this.#latest.has(stationId),
      plan: () => planOfState(this.#latest.get(stationId), lawn.control.lawn, stationId, timeZone, primary ? 'first' : 'own'),
      quiet: (nowMs) => this.#quiet(lawn, nowMs),
      clockSteppedAtMs: () => this.#clockSteppedAtMs,
      recordCut: (atMs) =>
        void (primary
          ? this.#options.recordCut(stationId, atMs, MOWER_CONTROL_CUT_SOURCE)
          : this.#options.recordCut(stationId, atMs, MOWER_CONTROL_CUT_SOURCE, lawn.id)),
      onEvent: (event) => this.#onEvent(lawn, event),
      onActivityTaken: () => this.#recompute?.(stationId),
    });
  }

  #quiet(lawn: ControlledLawn, nowMs: number): DecisionReason | undefined {
    const cause = this.#timeline?.causeUntil(nowMs, lawn.location).cause;
    if (!cause) return undefined;
    const timeZone = this.#options.timeZone;
    return { en: quietCauseText(cause, 'en', timeZone), de: quietCauseText(cause, 'de', timeZone) };
  }

  /** The state flows in (one way): the decision reads the newest one on its next tick. */
  onState(stationId: string, state: Readonly<StationStatePayload>): void {
    if (this.#lawnsOf(stationId).length > 0) this.#latest.set(stationId, state);
  }

  /** A station's controlled lawns, its first lawn first. */
  #lawnsOf(stationId: string): readonly ControlledLawn[] {
    return this.#byStation.get(stationId) ?? [];
  }

  /** The first Home Assistant mower's connection (the plan's notifications share it), if any station has one. */
  homeAssistant(): HomeAssistantMower | undefined {
    return [...this.#adapters.values()].find((adapter): adapter is HomeAssistantMower => adapter instanceof HomeAssistantMower);
  }

  /** A lawn's controller by its topic id: a station's id for its first lawn, a further lawn's id. */
  controller(id: string): MowerController | undefined {
    return this.#controllers.get(id);
  }

  async start(): Promise<void> {
    for (const controller of this.#controllers.values()) await controller.start();
    const tick = guarded(
      () => this.tickAll(),
      (err) => this.#options.log.error({ err }, 'mower control tick failed'),
    );
    this.#timer = setInterval(tick, this.#options.settings.tickSeconds * 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    // Each controller refuses every command from here on, then waits for what is under way.
    await Promise.all([...this.#controllers.values()].map((controller) => controller.stop()));
  }

  /** Asks every decision now (the timer; tests after moving their clock). */
  async tickAll(): Promise<void> {
    await Promise.all([...this.#controllers.values()].map((controller) => controller.tick()));
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#connection = connection;
    this.#recompute = recompute;
    for (const [id, controller] of this.#controllers) {
      const adapter = this.#adapters.get(id);
      if (adapter instanceof GenericMqttMower || adapter instanceof OpenMower) adapter.attach(connection);
      const topics = mowerTopics(this.#options.baseTopic, id);
      connection.subscribe(topics.automaticSet, (_topic, payload) => {
        const word = payload.toString('utf8').trim().toUpperCase();
        if (word !== 'ON' && word !== 'OFF') return;
        void controller.setAutomatic(word === 'ON').then(() => this.#publishAutomatic(id));
      });
      connection.subscribe(topics.mowNow, (_topic, _payload, retained) => {
        // A button is an event: a retained press (left on the broker by anyone) is never replayed as one.
        if (!retained) void controller.mowNow();
      });
      connection.subscribe(topics.dockNow, (_topic, _payload, retained) => {
        if (!retained) void controller.dockNow();
      });
      this.#publishAutomatic(id);
    }
  }

  #publishAutomatic(id: string): void {
    this.#sendAutomatic(id);
    const lawn = this.#lawns.get(id);
    if (lawn) this.#recompute?.(stationOf(lawn));
  }

  /** The switch's retained state, when it changed or could not go out yet (the bridge connects after subscribe). */
  #sendAutomatic(id: string): void {
    const controller = this.#controllers.get(id);
    if (!controller || this.#automaticSent.get(id) === controller.automatic) return;
    const sent =
      this.#connection?.publishNow?.(mowerTopics(this.#options.baseTopic, id).automatic, controller.automatic ? 'ON' : 'OFF', {
        retain: true,
      }) ?? false;
    if (sent) this.#automaticSent.set(id, controller.automatic);
    else this.#automaticSent.delete(id);
  }

  #onEvent(lawn: ControlledLawn, event: MowerEvent): void {
    if (event.type === 'command' || event.type === 'retry') this.counters.mowerCommands++;
    if (event.type === 'alert') this.counters.mowerAlerts++;
    const payload = JSON.stringify({
      event_type: event.type,
      action: event.action ?? null,
      code: event.code ?? null,
      reason: event.reason?.en ?? null,
      reason_de: event.reason?.de ?? null,
      at: new Date(event.atMs).toISOString(),
    });
    this.#connection?.publishNow?.(mowerTopics(this.#options.baseTopic, lawn.id).event, payload);
    this.#recompute?.(stationOf(lawn));
  }

  stateFragment(
    stationId: string,
    nowMs: number,
  ): { mower_control?: MowerControlStatus; mower_control_lawns?: MowerControlLawns } | undefined {
    const lawns = this.#lawnsOf(stationId);
    if (lawns.length === 0) return undefined;
    const fragment: { mower_control?: MowerControlStatus; mower_control_lawns?: MowerControlLawns } = {};
    for (const lawn of lawns) {
      // Every (re)connect recomputes every station: the retained switch state goes out with it.
      this.#sendAutomatic(lawn.id);
      const status = this.#statusOf(lawn, nowMs);
      if (!status) continue;
      if (isPrimary(lawn)) fragment.mower_control = status;
      else (fragment.mower_control_lawns ??= {})[lawn.id] = { ...status, name: lawn.name ?? lawn.id };
    }
    return fragment;
  }

  /** One lawn's status; a failure there leaves it out and the station's other lawns' mowers shown. */
  #statusOf(lawn: ControlledLawn, nowMs: number): MowerControlStatus | undefined {
    try {
      return this.#controllers.get(lawn.id)?.status(nowMs);
    } catch (err) {
      this.#options.log.error({ err, station: stationOf(lawn), lawn: lawn.id }, "a lawn's mower status failed");
      return undefined;
    }
  }

  entities(station: { id: string }): EntitySpec[] {
    return this.#lawnsOf(station.id).flatMap((lawn) =>
      mowerControlEntities(this.#options.baseTopic, station.id, isPrimary(lawn) ? undefined : { id: lawn.id, name: lawn.name ?? lawn.id }),
    );
  }

  clockStepped(step: ClockStep): void {
    this.#clockSteppedAtMs = this.#options.clock.now();
    for (const controller of this.#controllers.values()) controller.clockStepped(step.deltaMs);
  }

  stats(): Readonly<Record<string, number>> {
    return this.counters;
  }
}

declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The mower control's status: the last decision and its reason, the mower's activity, the run, the budget left, an alert. */
    mower_control: MowerControlStatus;
    /** Each further lawn's mower control (a lawn's own `mower.control`), by lawn id, with the lawn's name. */
    mower_control_lawns: MowerControlLawns;
  }
}
