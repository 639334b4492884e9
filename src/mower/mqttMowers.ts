/**
 * Mowers on MQTT, over the daemon's own broker connection (the unit's subscribe hook):
 *
 * - a generic mower (`kind: "mqtt"`): one command topic with a payload per command, a state topic whose
 *   word (plain or at a JSON key) maps to an activity through the configured lists (Worx through
 *   landroid-bridge, Mammotion and others through their bridges);
 * - OpenMower (`kind: "openmower"`), as its xbot_monitoring node speaks it (ClemensElflein/open_mower_ros,
 *   src/lib/xbot_monitoring/src/xbot_monitoring.cpp): actions as plain text on `<prefix>/action`
 *   (`mower_logic:idle/start_mowing`, `mower_logic:mowing/abort_mowing`, `mower_logic:mowing/pause`,
 *   src/mower_logic/src/mower_logic/behaviors/{IdleBehavior,MowingBehavior}.cpp), the state as JSON on
 *   `<prefix>/robot_state/json` with `current_state` (IDLE, UNDOCKING, MOWING, PAUSED, DOCKING,
 *   AREA_RECORDING), `emergency` and `is_charging`.
 *
 * A command goes out only while the connection is up (publishNow): one sent later could start a mower
 * into weather the decision never saw. The state topics come from other clients: they are parsed with
 * a size limit and only ever move the activity, never `mowable`.
 */
import { MAX_MOWER_PAYLOAD_BYTES, mowerStateWord } from '../core/lawn/mowerPayload.js';
import type { MowerActivity } from '../core/mower/decision.js';
import type { UnitSubscriber } from '../station/unit.js';
import type { MowerAdapter, MowerCommand } from './adapter.js';
import { MAPPED_ACTIVITIES, type GenericMqttMowerConfig, type OpenMowerConfig } from './controlConfig.js';

/** The part both MQTT kinds share: the connection, the last activity and its listeners. */
abstract class MqttMower implements MowerAdapter {
  abstract readonly kind: string;
  #connection: UnitSubscriber | undefined;
  #activity: MowerActivity = 'unknown';
  readonly #listeners: Array<(activity: MowerActivity) => void> = [];
  #rejected = 0;

  protected abstract readonly stateTopic: string;
  protected abstract commandOf(command: MowerCommand): { topic: string; payload: string };
  protected abstract activityOf(text: string): MowerActivity | undefined;

  async open(): Promise<void> {}

  async close(): Promise<void> {
    this.#connection = undefined;
  }

  /** The unit's subscribe hook hands the broker connection over (once per bridge start). */
  attach(connection: UnitSubscriber): void {
    this.#connection = connection;
    connection.subscribe(this.stateTopic, (_topic, payload) => {
      const activity = payload.length > MAX_MOWER_PAYLOAD_BYTES ? undefined : this.activityOf(payload.toString('utf8'));
      if (activity === undefined) {
        this.#rejected++;
        return;
      }
      this.#activity = activity;
      for (const listener of this.#listeners) listener(activity);
    });
  }

  async send(command: MowerCommand): Promise<void> {
    const { topic, payload } = this.commandOf(command);
    const sent = this.#connection?.publishNow?.(topic, payload) ?? false;
    if (!sent) throw new Error('the MQTT connection is down: command not sent');
  }

  activity(): MowerActivity {
    return this.#activity;
  }

  onActivity(listener: (activity: MowerActivity) => void): void {
    this.#listeners.push(listener);
  }

  problem(): string | undefined {
    if (!this.#connection) return 'not connected to the MQTT broker';
    return this.#rejected > 0 && this.#activity === 'unknown'
      ? `the state topic ${this.stateTopic} carried ${this.#rejected} message(s) without a known state`
      : undefined;
  }
}

export class GenericMqttMower extends MqttMower {
  readonly kind = 'mqtt';
  readonly #config: GenericMqttMowerConfig;

  constructor(config: GenericMqttMowerConfig) {
    super();
    this.#config = config;
  }

  protected get stateTopic(): string {
    return this.#config.stateTopic;
  }

  protected commandOf(command: MowerCommand): { topic: string; payload: string } {
    return { topic: this.#config.commandTopic, payload: this.#config.payloads[command] };
  }

  protected activityOf(text: string): MowerActivity | undefined {
    const word = this.#config.stateKey === '' ? text.trim().toLowerCase() : mowerStateWord(text, this.#config.stateKey);
    if (word === undefined || word === '') return undefined;
    return MAPPED_ACTIVITIES.find((activity) => this.#config.states[activity].includes(word)) ?? 'unknown';
  }
}

/** OpenMower's action names (open_mower_ros mower_logic behaviours). */
export const OPENMOWER_ACTIONS: Readonly<Record<MowerCommand, string>> = {
  start: 'mower_logic:idle/start_mowing',
  dock: 'mower_logic:mowing/abort_mowing',
  pause: 'mower_logic:mowing/pause',
};

const OPENMOWER_STATES: Readonly<Record<string, MowerActivity>> = {
  IDLE: 'docked',
  UNDOCKING: 'mowing',
  MOWING: 'mowing',
  PAUSED: 'paused',
  DOCKING: 'returning',
  AREA_RECORDING: 'unknown',
};

export class OpenMower extends MqttMower {
  readonly kind = 'openmower';
  readonly #prefix: string;

  constructor(config: OpenMowerConfig) {
    super();
    // xbot_monitoring appends the "/" to external_mqtt_topic_prefix when it lacks one.
    this.#prefix = config.prefix.endsWith('/') ? config.prefix : `${config.prefix}/`;
  }

  protected get stateTopic(): string {
    return `${this.#prefix}robot_state/json`;
  }

  protected commandOf(command: MowerCommand): { topic: string; payload: string } {
    return { topic: `${this.#prefix}action`, payload: OPENMOWER_ACTIONS[command] };
  }

  protected activityOf(text: string): MowerActivity | undefined {
    let state: unknown;
    try {
      state = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof state !== 'object' || state === null) return undefined;
    const { current_state: current, emergency } = state as Record<string, unknown>;
    if (emergency === true) return 'error';
    return typeof current === 'string' ? (OPENMOWER_STATES[current] ?? 'unknown') : undefined;
  }
}
