/**
 * A station's `mower` block, the key the lawn memory owns in the station objects: the robot mower's
 * state topic whose long enough runs of "mowing" record cuts (docs/mqtt.md "Mower state topic").
 * Every message names the key and the fix; the topic may not lie under `mqtt.baseTopic`.
 */
import { MAX_MOWER_KEY_DEPTH, MAX_MOWER_MIN_MINUTES } from '../core/lawn/mowerPayload.js';
import { isPlainObject, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';

/** A robot mower's state topic (./mowerStateSource.ts): a long enough run of "mowing" records a cut. */
export interface MowerConfig {
  /** A concrete topic (no wildcards): the mower's state, plain text or JSON. Optional with `control` (then the control's run ledger records the cuts). */
  topic?: string;
  /** Dotted path of the state in JSON object payloads (default `state`). */
  key?: string;
  /** State values that mean "mowing", compared without case (default `["mowing"]`). */
  mowingStates?: string[];
  /** Shortest run of "mowing" that counts as a cut, minutes (default 10). */
  minMinutes?: number;
}

/** `control` belongs to the mower control unit (src/mower/controlConfig.ts), which validates it. */
export const MOWER_KEYS: readonly string[] = ['topic', 'key', 'mowingStates', 'minMinutes', 'control'];
/** More state words than any mower has; a longer list is a mistake. */
const MAX_MOWING_STATES = 16;
const MAX_STATE_LENGTH = 64;
const MAX_TOPIC_LENGTH = 256;

function topicProblem(topic: unknown): string | undefined {
  if (typeof topic !== 'string' || topic === '')
    return 'is required: the MQTT topic the mower (or its bridge) publishes its state on, e.g. "homeassistant/lawn_mower/robbi/state"';
  if (topic.length > MAX_TOPIC_LENGTH) return `must be at most ${MAX_TOPIC_LENGTH} characters`;
  if (topic.includes('\u0000')) return 'must not contain NUL';
  // One mower, one topic: a wildcard would let any client invent topics and sessions under it.
  if (topic.includes('+') || topic.includes('#')) return 'must be a concrete topic (no wildcards + or #)';
  return undefined;
}

function statesProblem(states: unknown): string | undefined {
  const ok =
    Array.isArray(states) &&
    states.length > 0 &&
    states.length <= MAX_MOWING_STATES &&
    states.every((state) => typeof state === 'string' && state.trim() !== '' && state.length <= MAX_STATE_LENGTH);
  return ok
    ? undefined
    : `must be a list of 1 to ${MAX_MOWING_STATES} non-empty state values (up to ${MAX_STATE_LENGTH} characters each), e.g. ["mowing"] or ["7"] for a numeric status`;
}

export function mowerProblems(mower: unknown, problem: Problem): void {
  if (mower === undefined) return;
  if (!isPlainObject(mower))
    return problem(
      'mower',
      'must be an object {"topic": "...", "key": "state", "mowingStates": ["mowing"], "minMinutes": 10} naming the mower\'s state topic',
    );
  for (const key of Object.keys(mower))
    if (!MOWER_KEYS.includes(key)) problem(`mower.${key}`, `is not allowed (only ${MOWER_KEYS.join(', ')})`);
  // With `control` the mower's state comes through the control (its run ledger records the cuts): the topic is optional.
  const topic = mower.topic === undefined && mower.control !== undefined ? undefined : topicProblem(mower.topic);
  if (topic) problem('mower.topic', topic);
  const key = mower.key;
  if (
    key !== undefined &&
    (typeof key !== 'string' || key.split('.').some((level) => level === '') || key.split('.').length > MAX_MOWER_KEY_DEPTH)
  ) {
    problem('mower.key', `must be a JSON field or a dotted path to it of up to ${MAX_MOWER_KEY_DEPTH} levels, e.g. "state" or "dat.ls"`);
  }
  if (mower.mowingStates !== undefined) {
    const states = statesProblem(mower.mowingStates);
    if (states) problem('mower.mowingStates', states);
  }
  const minutes = mower.minMinutes;
  if (
    minutes !== undefined &&
    (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MOWER_MIN_MINUTES)
  ) {
    problem(
      'mower.minMinutes',
      `must be a whole number of minutes from 1 to ${MAX_MOWER_MIN_MINUTES} (the shortest run of "mowing" that counts as a cut)`,
    );
  }
}

/** The station key `mower` and its validation (the lawn memory's, ./buildLawnUnit.ts). */
export const MOWER_STATION_KEY: UnitStationKey = {
  key: 'mower',
  problems: mowerProblems,
  topics: (mower) => ((mower as MowerConfig).topic === undefined ? [] : [(mower as MowerConfig).topic!]),
};

/** The run length and gap of a `mower.control` block (validated by the mower control, src/mower/controlConfig.ts). */
export function mowerRunOf(mower: MowerConfig | undefined): { runMinutes?: number; minGapHours?: number } | undefined {
  const control = (mower as { control?: unknown } | undefined)?.control;
  if (typeof control !== 'object' || control === null) return undefined;
  const { runMinutes, minGapHours } = control as { runMinutes?: unknown; minGapHours?: unknown };
  return {
    ...(typeof runMinutes === 'number' && { runMinutes }),
    ...(typeof minGapHours === 'number' && { minGapHours }),
  };
}
