/**
 * The station unit over the mower controllers (./controller.ts), one per station whose `mower.control`
 * is enabled: it builds each one's adapter and ledger, asks the decisions on a timer, hands the MQTT
 * adapters the broker connection, listens on the command topics of the "Automatic mowing" switch and
 * the "Mow now" / "Dock now" buttons, publishes the switch's retained state and every event, and shows
 * each controller's status in the station's state (`mower_control`) and on its route.
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

export interface ControlledStation {
  id: string;
  control: MowerControlConfig;
  location?: StationLocation;
}

export interface MowerControlOptions {
  stations: readonly ControlledStation[];
  settings: MowerControlSettings;
  /** Each lawn's runs, calls and switch (src/store/mowerRunStore.ts), under its run ledger. */
  store: MowerRunStore;
  log: Logger;
  clock: Clock;
  baseTopic: string;
  timeZone: string;
  recordCut: RecordCut;
  quietHours: QuietHoursSettings | undefined;
  /** Builds a station's adapter (tests hand in simulators); default: by kind. */
  adapterFor?: (station: ControlledStation) => MowerAdapter;
}

/** Records a cut in the lawn memory (its last cut and growth reset); false when it is not newer or the lawn memory is off. */
export type RecordCut = (stationId: string, atMs: number, source: string) => boolean;

/** The cut source of runs the ledger completed (the state's `lawn.last_cut_source`). */
export const MOWER_CONTROL_CUT_SOURCE = 'mower-control';

export class MowerControlUnit implements StationUnit {
  readonly name = 'mower-control';
  readonly routes;
  readonly #options: MowerControlOptions;
  readonly #controllers = new Map<string, MowerController>();
  readonly #adapters = new Map<string, MowerAdapter>();
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
    for (const station of options.stations) {
      const adapter = options.adapterFor?.(station) ?? this.#adapterOf(station);
      this.#adapters.set(station.id, adapter);
      this.#controllers.set(station.id, this.#controllerOf(station, adapter));
    }
    this.routes = mowerRoutes(
      (stationId) => this.#controllers.get(stationId),
      () => options.clock.now(),
    );
  }

  #adapterOf(station: ControlledStation): MowerAdapter {
    const { control } = station;
    if (control.kind === 'homeassistant')
      return new HomeAssistantMower(
        control.homeassistant!,
        homeAssistantEndpoint(control.homeassistant!.url, this.#options.settings),
        this.#options.log,
      );
    if (control.kind === 'openmower') return new OpenMower(control.openmower!);
    return new GenericMqttMower(control.mqtt!);
  }

  #controllerOf(station: ControlledStation, adapter: MowerAdapter): MowerController {
    const { clock, log, timeZone, store } = this.#options;
    return new MowerController({
      stationId: station.id,
      config: station.control,
      adapter,
      ledger: new RunLedger({ store, lawn: station.control.lawn, station: station.id, timeZone }),
      now: () => clock.now(),
      log,
      timeZone,
      station: () => stationViewOf(this.#latest.get(station.id)),
      startedAtMs: this.#startedAtMs,
      firstStateSeen: () => this.#latest.has(station.id),
      plan: () => planOfState(this.#latest.get(station.id), station.control.lawn, station.id, timeZone),
      quiet: (nowMs) => this.#quiet(station, nowMs),
      clockSteppedAtMs: () => this.#clockSteppedAtMs,
      recordCut: (atMs) => void this.#options.recordCut(station.id, atMs, MOWER_CONTROL_CUT_SOURCE),
      onEvent: (event) => this.#onEvent(station.id, event),
    });
  }

  #quiet(station: ControlledStation, nowMs: number): DecisionReason | undefined {
    const cause = this.#timeline?.causeUntil(nowMs, station.location).cause;
    if (!cause) return undefined;
    const timeZone = this.#options.timeZone;
    return { en: quietCauseText(cause, 'en', timeZone), de: quietCauseText(cause, 'de', timeZone) };
  }

  /** The state flows in (one way): the decision reads the newest one on its next tick. */
  onState(stationId: string, state: Readonly<StationStatePayload>): void {
    if (this.#controllers.has(stationId)) this.#latest.set(stationId, state);
  }

  /** The first Home Assistant mower's connection (the plan's notifications share it), if any station has one. */
  homeAssistant(): HomeAssistantMower | undefined {
    return [...this.#adapters.values()].find((adapter): adapter is HomeAssistantMower => adapter instanceof HomeAssistantMower);
  }

  controller(stationId: string): MowerController | undefined {
    return this.#controllers.get(stationId);
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
    for (const [stationId, controller] of this.#controllers) {
      const adapter = this.#adapters.get(stationId);
      if (adapter instanceof GenericMqttMower || adapter instanceof OpenMower) adapter.attach(connection);
      const topics = mowerTopics(this.#options.baseTopic, stationId);
      connection.subscribe(topics.automaticSet, (_topic, payload) => {
        const word = payload.toString('utf8').trim().toUpperCase();
        if (word !== 'ON' && word !== 'OFF') return;
        void controller.setAutomatic(word === 'ON').then(() => this.#publishAutomatic(stationId));
      });
      connection.subscribe(topics.mowNow, (_topic, _payload, retained) => {
        // A button is an event: a retained press (left on the broker by anyone) is never replayed as one.
        if (!retained) void controller.mowNow();
      });
      connection.subscribe(topics.dockNow, (_topic, _payload, retained) => {
        if (!retained) void controller.dockNow();
      });
      this.#publishAutomatic(stationId);
    }
  }

  #publishAutomatic(stationId: string): void {
    this.#sendAutomatic(stationId);
    this.#recompute?.(stationId);
  }

  /** The switch's retained state, when it changed or could not go out yet (the bridge connects after subscribe). */
  #sendAutomatic(stationId: string): void {
    const controller = this.#controllers.get(stationId);
    if (!controller || this.#automaticSent.get(stationId) === controller.automatic) return;
    const sent =
      this.#connection?.publishNow?.(mowerTopics(this.#options.baseTopic, stationId).automatic, controller.automatic ? 'ON' : 'OFF', {
        retain: true,
      }) ?? false;
    if (sent) this.#automaticSent.set(stationId, controller.automatic);
    else this.#automaticSent.delete(stationId);
  }

  #onEvent(stationId: string, event: MowerEvent): void {
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
    this.#connection?.publishNow?.(mowerTopics(this.#options.baseTopic, stationId).event, payload);
    this.#recompute?.(stationId);
  }

  stateFragment(stationId: string, nowMs: number): { mower_control: ReturnType<MowerController['status']> } | undefined {
    const controller = this.#controllers.get(stationId);
    if (!controller) return undefined;
    // Every (re)connect recomputes every station: the retained switch state goes out with it.
    this.#sendAutomatic(stationId);
    return { mower_control: controller.status(nowMs) };
  }

  entities(station: { id: string }): EntitySpec[] {
    return this.#controllers.has(station.id) ? mowerControlEntities(this.#options.baseTopic, station.id) : [];
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
  }
}
