/**
 * The Home Assistant controls of every station as one unit: the `mowable` thresholds and on-delay and
 * the lawn's mower class, set on `<base>/<station>/control/<key>/set` (./controlEntities.ts). A value is
 * read strictly (./controlValues.ts), written to the database (src/store/stationControlStore.ts) and only then
 * used, so it survives a restart and overrides the configured value until it is reset (an empty
 * payload or `reset`). A refused command changes nothing: its reason goes out on
 * `<base>/<station>/control/refused` and into the state (`controls.last_refused`), and the state
 * published after it shows the old value again. The recompute reads the values through
 * StationOverrides (./recompute.ts); only the daemon and Home Assistant's account may publish
 * these topics (src/mqtt/clientTopics.ts).
 */
import type { Logger } from 'pino';
import type { LawnProfile, MowerClass } from '../core/index.js';
import { CONTROL_SETTINGS, type ControlSetting } from '../config/mqttValues.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import { controlCommandTopic, controlEntities, controlRefusedTopic } from './controlEntities.js';
import { readControlPayload, storedControlValue, type ControlValues } from './controlValues.js';
import type { MowableSettings } from './mowable.js';
import type { StationOverrides } from './recompute.js';
import type { StationControlStore } from '../store/stationControlStore.js';
import type { Reason, StationUnit, UnitSubscriber } from './unit.js';

export interface ControlledStationConfig {
  id: string;
  /** The mower class the configuration gives the station (its `lawn.mowerClass`, else the service's, else the core's default). */
  mowerClass: MowerClass;
}

export interface StationControlsOptions {
  stations: readonly ControlledStationConfig[];
  /** The configured hysteresis (`station.*`). */
  mowable: MowableSettings;
  /** Where the values are kept; none: they last until the process ends (a test's pipeline in memory). */
  store?: StationControlStore;
  baseTopic: string;
  log: Logger;
  now: () => number;
}

/** One control in the state: its value, the configuration's, and whether Home Assistant's value is in force. */
export interface ControlState<T> {
  value: T;
  configured: T;
  source: 'config' | 'home_assistant';
  set_at: string | null;
}

export interface ControlRefusal {
  control: ControlSetting;
  reason: string;
  reason_de: string;
  at: string;
}

export type ControlsState = { [K in ControlSetting]: ControlState<ControlValues[K]> } & { last_refused: ControlRefusal | null };

interface Held {
  configured: ControlValues;
  set: Partial<Record<ControlSetting, { value: number | MowerClass; atMs: number }>>;
  values: ControlValues;
  mowable: MowableSettings;
  lawn?: { base: Partial<LawnProfile> | undefined; lawn: Partial<LawnProfile> };
  refused: ControlRefusal | null;
  /** Commands of one station run one after another (each awaits its write). */
  queue: Promise<void>;
}

const MINUTE_MS = 60_000;

export class StationControls implements StationUnit, StationOverrides {
  readonly name = 'controls';
  readonly counters = { controlCommands: 0, controlRefused: 0 };
  readonly #options: StationControlsOptions;
  readonly #held = new Map<string, Held>();
  #connection: UnitSubscriber | undefined;
  #recompute: ((stationId: string) => void) | undefined;

  constructor(options: StationControlsOptions) {
    this.#options = options;
    const { onThreshold, offThreshold, onDelayMs } = options.mowable;
    for (const station of options.stations) {
      const configured: ControlValues = {
        mowable_on_threshold: onThreshold,
        mowable_off_threshold: offThreshold,
        mowable_on_delay_minutes: onDelayMs / MINUTE_MS,
        mower_class: station.mowerClass,
      };
      this.#held.set(station.id, {
        configured,
        set: {},
        values: configured,
        mowable: options.mowable,
        refused: null,
        queue: Promise.resolve(),
      });
    }
  }

  async start(): Promise<void> {
    const store = this.#options.store;
    if (!store) return;
    for (const row of await store.loadAll()) {
      const held = this.#held.get(row.station);
      if (!held || !(CONTROL_SETTINGS as readonly string[]).includes(row.control)) continue;
      const key = row.control as ControlSetting;
      const value = storedControlValue(key, row.value, held.values);
      if (value === undefined) {
        // A value the configuration's rules no longer allow (the other threshold changed in the file): the configured one applies.
        this.#options.log.warn({ station: row.station, control: key }, 'a stored control value no longer fits; using the configured one');
        continue;
      }
      this.#apply(held, key, { value, atMs: row.setAtMs });
    }
  }

  /** Waits for the commands under way (their database writes) before the database closes. */
  async stop(): Promise<void> {
    await this.settled();
  }

  /** Resolves once every command received so far is handled. */
  async settled(): Promise<void> {
    await Promise.all([...this.#held.values()].map((held) => held.queue));
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#connection = connection;
    this.#recompute = recompute;
    for (const [stationId, held] of this.#held) {
      for (const key of CONTROL_SETTINGS) {
        connection.subscribe(controlCommandTopic(this.#options.baseTopic, stationId, key), (_topic, payload, retained) => {
          // A command is an event: a retained copy (left on an external broker by anyone) is never replayed as one.
          if (retained) return;
          held.queue = held.queue.then(() => this.command(stationId, key, payload));
        });
      }
    }
  }

  /** One command payload for a station's control (the MQTT handler; tests call it directly). */
  async command(stationId: string, key: ControlSetting, payload: Buffer): Promise<void> {
    const held = this.#held.get(stationId);
    if (!held) return;
    this.counters.controlCommands++;
    const request = readControlPayload(key, payload, held.values);
    if (request.kind === 'refused') return this.#refuse(stationId, held, key, request.reason);
    const atMs = this.#options.now();
    try {
      await this.#write(stationId, key, request.kind === 'set' ? request.value : undefined, atMs);
    } catch (err) {
      this.#options.log.error({ err, station: stationId, control: key }, 'saving a control value failed');
      return this.#refuse(stationId, held, key, { en: 'the value could not be saved', de: 'der Wert konnte nicht gespeichert werden' });
    }
    this.#apply(held, key, request.kind === 'set' ? { value: request.value, atMs } : undefined);
    this.#options.log.info({ station: stationId, control: key, value: held.values[key] }, 'control set from Home Assistant');
    this.#recompute?.(stationId);
  }

  async #write(stationId: string, key: ControlSetting, value: number | MowerClass | undefined, atMs: number): Promise<void> {
    const store = this.#options.store;
    if (!store) return;
    if (value === undefined) await store.remove(stationId, key);
    else await store.save(stationId, key, value, atMs);
  }

  #apply(held: Held, key: ControlSetting, entry: { value: number | MowerClass; atMs: number } | undefined): void {
    if (entry) held.set[key] = entry;
    else delete held.set[key];
    const values = { ...held.configured } as Record<ControlSetting, number | MowerClass>;
    for (const [name, set] of Object.entries(held.set)) values[name as ControlSetting] = set.value;
    held.values = values as ControlValues;
    held.mowable = {
      onThreshold: held.values.mowable_on_threshold,
      offThreshold: held.values.mowable_off_threshold,
      onDelayMs: held.values.mowable_on_delay_minutes * MINUTE_MS,
    };
    delete held.lawn;
  }

  #refuse(stationId: string, held: Held, key: ControlSetting, reason: Reason): void {
    this.counters.controlRefused++;
    held.refused = { control: key, reason: reason.en, reason_de: reason.de, at: new Date(this.#options.now()).toISOString() };
    this.#options.log.warn({ station: stationId, control: key }, `control command refused: ${reason.en}`);
    this.#connection?.publishNow?.(controlRefusedTopic(this.#options.baseTopic, stationId), JSON.stringify(held.refused));
    // The state goes out again: Home Assistant's number or select shows the value in force, not the refused one.
    this.#recompute?.(stationId);
  }

  /** The values in force for a station (undefined for a station the controls do not know). */
  values(stationId: string): Readonly<ControlValues> | undefined {
    return this.#held.get(stationId)?.values;
  }

  mowableSettings(stationId: string, configured: MowableSettings): MowableSettings {
    return this.#held.get(stationId)?.mowable ?? configured;
  }

  mowerClass(stationId: string): MowerClass | undefined {
    return this.#held.get(stationId)?.set.mower_class?.value as MowerClass | undefined;
  }

  /** The station's lawn profile with Home Assistant's mower class; the same object while nothing changes (the recompute reads it per reading). */
  lawnOf(stationId: string, base: Partial<LawnProfile> | undefined): Partial<LawnProfile> | undefined {
    const held = this.#held.get(stationId);
    const mowerClass = this.mowerClass(stationId);
    if (!held || mowerClass === undefined) return base;
    const cached = held.lawn;
    if (cached !== undefined && cached.base === base && cached.lawn.mowerClass === mowerClass) return cached.lawn;
    held.lawn = { base, lawn: { ...base, mowerClass } };
    return held.lawn.lawn;
  }

  stateFragment(stationId: string): { controls: ControlsState } | undefined {
    const held = this.#held.get(stationId);
    if (!held) return undefined;
    const entry = <K extends ControlSetting>(key: K): ControlState<ControlValues[K]> => {
      const set = held.set[key];
      return {
        value: held.values[key],
        configured: held.configured[key],
        source: set ? 'home_assistant' : 'config',
        set_at: set ? new Date(set.atMs).toISOString() : null,
      };
    };
    return {
      controls: {
        mowable_on_threshold: entry('mowable_on_threshold'),
        mowable_off_threshold: entry('mowable_off_threshold'),
        mowable_on_delay_minutes: entry('mowable_on_delay_minutes'),
        mower_class: entry('mower_class'),
        last_refused: held.refused,
      },
    };
  }

  entities(station: { id: string }): EntitySpec[] {
    return this.#held.has(station.id) ? controlEntities(this.#options.baseTopic, station.id) : [];
  }

  stats(): Readonly<Record<string, number>> {
    return this.counters;
  }
}

declare module './statePayload.js' {
  interface StationStateFields {
    /** The Home Assistant controls: each value in force, the configured one, its source, and the last refused command. */
    controls: ControlsState;
  }
}
