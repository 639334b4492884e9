/**
 * A robot mower's state topic as a cut source (a station's `mower` config): subscribes the topic,
 * reads the state word, steps the pure session of src/core/lawn/mowerSession.ts, and hands a cut to
 * the lawn memory's recordCut (the one place cuts are recorded). Another MQTT client publishes this
 * topic, so it is untrusted: all it can do is record a cut at the daemon's own time, which lowers
 * mow_need; that never turns `mowable` on (docs/model.md "Lawn memory", test/lawn/mowerAttack.test.ts).
 * Sessions live in memory: a restart forgets a run in progress. A further lawn's own `mower` block
 * records that lawn's cuts and shows in the state's `mower_lawns[<lawn>]`; the first lawn's is `mower`.
 */
import type { Logger } from 'pino';
import {
  DEFAULT_MOWER_KEY,
  DEFAULT_MOWER_MIN_MINUTES,
  MAX_MOWER_PAYLOAD_BYTES,
  isMowingState,
  mowerStateWord,
} from '../core/lawn/mowerPayload.js';
import { IDLE_MOWER, mowingMinutes, stepMowerSession, type MowerSession } from '../core/lawn/mowerSession.js';
import type { MowerConfig } from './mowerConfig.js';
import type { StationUnit, UnitSubscriber } from '../station/unit.js';
import { LogThrottle } from '../util/logThrottle.js';

/** The `last_cut_source` of cuts this source records. */
export const MOWER_CUT_SOURCE = 'mower';

export type RecordCut = (stationId: string, atMs: number, source: string, lawnId?: string) => boolean;

export type MowerCounters = { mowerStatesReceived: number; mowerStatesRejected: number; mowerCuts: number };

/** The state's `mower` object. */
export interface MowerStatus {
  topic: string;
  state: string | null;
  mowing: boolean;
  mowing_minutes: number;
}

interface Tracked {
  stationId: string;
  /** A further lawn's id; undefined for the station's first lawn. */
  lawnId: string | undefined;
  config: MowerConfig & { topic: string };
  session: MowerSession;
  state: string | null;
}

export class MowerStateSources implements StationUnit {
  readonly name = 'mower';
  readonly counters: MowerCounters = { mowerStatesReceived: 0, mowerStatesRejected: 0, mowerCuts: 0 };
  /** By the lawn's id for a further lawn, by the station's id for its first lawn. */
  readonly #stations = new Map<string, Tracked>();
  readonly #recordCut: RecordCut;
  readonly #now: () => number;
  readonly #throttle: LogThrottle;

  /** `stations`: those with a `mower` key (the others are left out); `lawnId` a further lawn's own block. */
  constructor(
    stations: ReadonlyArray<{ id: string; mower?: MowerConfig | undefined; lawnId?: string }>,
    recordCut: RecordCut,
    logger: Logger,
    now: () => number,
  ) {
    for (const { id, mower, lawnId } of stations)
      if (mower?.topic !== undefined)
        this.#stations.set(lawnId ?? id, {
          stationId: id,
          lawnId,
          config: { ...mower, topic: mower.topic },
          session: IDLE_MOWER,
          state: null,
        });
    this.#recordCut = recordCut;
    this.#now = now;
    this.#throttle = new LogThrottle(logger.child({ module: 'mower' }));
  }

  /** True when some station has a mower topic (else the composition root leaves the unit out). */
  get configured(): boolean {
    return this.#stations.size > 0;
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    for (const [id, tracked] of this.#stations) {
      connection.subscribe(tracked.config.topic, (_topic, payload, retained) => {
        if (this.handle(id, payload, retained)) recompute(tracked.stationId);
      });
    }
  }

  /** One message on a station's (or, by its id, a further lawn's) mower topic; true when it recorded a cut. */
  handle(id: string, payload: Buffer, retained: boolean): boolean {
    const tracked = this.#stations.get(id);
    if (!tracked) return false;
    const { stationId, lawnId } = tracked;
    this.counters.mowerStatesReceived++;
    const key = tracked.config.key ?? DEFAULT_MOWER_KEY;
    const state = payload.length <= MAX_MOWER_PAYLOAD_BYTES ? mowerStateWord(payload.toString('utf8'), key) : undefined;
    if (state === undefined) {
      this.counters.mowerStatesRejected++;
      this.#throttle.warn(
        `mower:${id}`,
        { station: stationId, ...(lawnId && { lawn: lawnId }), bytes: payload.length },
        `mower state ignored: expected a state word (e.g. mowing, docked) or a JSON object with "${key}" holding one`,
      );
      return false;
    }
    const nowMs = this.#now();
    const minMs = (tracked.config.minMinutes ?? DEFAULT_MOWER_MIN_MINUTES) * 60_000;
    const step = stepMowerSession(tracked.session, { mowing: isMowingState(state, tracked.config.mowingStates), retained }, nowMs, minMs);
    tracked.session = step.session;
    tracked.state = state;
    const recorded =
      step.cutAtMs !== null &&
      (lawnId === undefined
        ? this.#recordCut(stationId, step.cutAtMs, MOWER_CUT_SOURCE)
        : this.#recordCut(stationId, step.cutAtMs, MOWER_CUT_SOURCE, lawnId));
    if (!recorded) return false;
    this.counters.mowerCuts++;
    return true;
  }

  stateFragment(stationId: string, nowMs: number): { mower?: MowerStatus; mower_lawns?: Record<string, MowerStatus> } | undefined {
    let fragment: { mower?: MowerStatus; mower_lawns?: Record<string, MowerStatus> } | undefined;
    for (const tracked of this.#stations.values()) {
      if (tracked.stationId !== stationId) continue;
      fragment ??= {};
      const mowing = tracked.session.mowingSinceMs !== null;
      const status = { topic: tracked.config.topic, state: tracked.state, mowing, mowing_minutes: mowingMinutes(tracked.session, nowMs) };
      if (tracked.lawnId === undefined) fragment.mower = status;
      else (fragment.mower_lawns ??= {})[tracked.lawnId] = status;
    }
    return fragment;
  }

  stats(): Readonly<MowerCounters> {
    return this.counters;
  }
}

/** The state key this unit owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The mower state source (stations with `mower`). */
    mower: MowerStatus;
    /** Each further lawn's own mower state source (its `mower.topic`), by lawn id. */
    mower_lawns: Record<string, MowerStatus>;
  }
}
