/**
 * Failure isolation of station units: one wrapper around the unit contract
 * (./unit.ts) that every unit is built into. A hook that throws is caught per
 * unit and per station, logged at most once a minute per unit, hook and
 * station with their names, counted, and answered with what "this unit knows
 * nothing" means for that hook, so the other units and stations keep going.
 * `mowableHold` fails safe: a unit that cannot answer holds the flag off (it
 * may be the one enforcing quiet hours). A unit whose start() failed is not
 * called again until the next start; its hold keeps `mowable` off meanwhile.
 * What failed stays recorded until the same hook succeeds for the station, and
 * the station's state names it (`unit_errors`).
 */
import type { Logger } from 'pino';
import type { LogThrottle } from '../util/logThrottle.js';
import type { UnitFailure } from './statePayload.js';
import type { MowableHold, StationUnit, UnitSubscriber } from './unit.js';

/** The machine word of the hold a failed unit puts on `mowable`. */
export const UNIT_FAILED_CODE = 'unit_failed';
/** The record's key for failures that concern every station (start, subscribe, messages, stats). */
const EVERY_STATION = '*';

export type { UnitFailure } from './statePayload.js';

/** What failed, per station, and how often; shared by all the wrapped units of one pipeline. */
export class UnitFailures {
  readonly #byStation = new Map<string, Map<string, UnitFailure>>();
  #count = 0;

  record(stationId: string, failure: UnitFailure): void {
    this.#count++;
    let entries = this.#byStation.get(stationId);
    if (!entries) this.#byStation.set(stationId, (entries = new Map<string, UnitFailure>()));
    entries.set(`${failure.unit}:${failure.hook}`, failure);
  }

  /** Called after every hook that worked (several per reading): no key is built while nothing failed. */
  clear(stationId: string, unit: string, hook: string): void {
    const entries = this.#byStation.get(stationId);
    if (entries !== undefined && entries.size > 0) entries.delete(`${unit}:${hook}`);
  }

  /** The failures that stand for the station (its own and every station's), oldest first. */
  forStation(stationId: string): UnitFailure[] {
    return [...(this.#byStation.get(EVERY_STATION)?.values() ?? []), ...(this.#byStation.get(stationId)?.values() ?? [])];
  }

  /** Hooks that threw since start. */
  get count(): number {
    return this.#count;
  }
}

export interface IsolationDeps {
  failures: UnitFailures;
  throttle: LogThrottle;
  log: Logger;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function isolateUnit(unit: StationUnit, deps: IsolationDeps): StationUnit {
  const { failures, throttle } = deps;
  let startFailed: string | undefined;
  const guard = <T>(stationId: string | undefined, hook: string, run: () => T, fallback: (message: string) => T): T => {
    const station = stationId ?? EVERY_STATION;
    if (startFailed !== undefined) return fallback(startFailed);
    try {
      const result = run();
      failures.clear(station, unit.name, hook);
      return result;
    } catch (err) {
      const message = messageOf(err);
      failures.record(station, { unit: unit.name, hook, message });
      const where = stationId === undefined ? '' : ` for station ${stationId}`;
      throttle.warn(
        `unit:${unit.name}:${hook}:${station}`,
        { err, unit: unit.name, hook, ...(stationId === undefined ? {} : { station: stationId }) },
        `station unit "${unit.name}" failed in ${hook}${where}; the other units and stations go on`,
      );
      return fallback(message);
    }
  };
  const nothing = () => undefined;
  const failedHold = (message: string): MowableHold => ({
    code: UNIT_FAILED_CODE,
    reason: {
      en: `station unit "${unit.name}" failed (${message}); mowable is held off until it works again`,
      de: `Stationsbaustein „${unit.name}“ ausgefallen; Mähen bleibt gesperrt, bis er wieder arbeitet`,
    },
  });
  const isolated: StationUnit = {
    name: unit.name,
    async start(context) {
      startFailed = undefined;
      failures.clear(EVERY_STATION, unit.name, 'start');
      try {
        await unit.start?.(context);
      } catch (err) {
        startFailed = messageOf(err);
        failures.record(EVERY_STATION, { unit: unit.name, hook: 'start', message: startFailed });
        deps.log.error(
          { err, unit: unit.name },
          `station unit "${unit.name}" failed to start; the station side runs without it and holds mowable off`,
        );
      }
    },
    async stop() {
      await unit.stop?.().catch((err: unknown) => deps.log.error({ err, unit: unit.name }, 'station unit failed to stop'));
    },
    mowableHold: (stationId, nowMs) => guard(stationId, 'mowableHold', () => unit.mowableHold?.(stationId, nowMs), failedHold),
  };
  if (unit.onReading)
    isolated.onReading = (stationId, reading) => guard(stationId, 'onReading', () => unit.onReading?.(stationId, reading), nothing);
  if (unit.subscribe) {
    isolated.subscribe = (connection, recompute) => {
      const guarded: UnitSubscriber = {
        subscribe: (filter, handler) =>
          connection.subscribe(filter, (topic, payload, retained) =>
            guard(undefined, 'message', () => handler(topic, payload, retained), nothing),
          ),
        ...(connection.publishNow && { publishNow: connection.publishNow.bind(connection) }),
      };
      guard(undefined, 'subscribe', () => unit.subscribe?.(guarded, recompute), nothing);
    };
  }
  if (unit.extendInput)
    isolated.extendInput = (stationId, input, nowMs) =>
      guard(
        stationId,
        'extendInput',
        () => unit.extendInput?.(stationId, input, nowMs) ?? input,
        () => input,
      );
  if (unit.onState)
    isolated.onState = (stationId, state, nowMs) => guard(stationId, 'onState', () => unit.onState?.(stationId, state, nowMs), nothing);
  if (unit.stateFragment)
    isolated.stateFragment = (stationId, nowMs) => guard(stationId, 'stateFragment', () => unit.stateFragment?.(stationId, nowMs), nothing);
  if (unit.entities)
    isolated.entities = (station) =>
      guard(
        station.id,
        'entities',
        () => unit.entities?.(station) ?? [],
        () => [],
      );
  if (unit.clockStepped) isolated.clockStepped = (step) => guard(undefined, 'clockStepped', () => unit.clockStepped?.(step), nothing);
  if (unit.stats)
    isolated.stats = () =>
      guard(
        undefined,
        'stats',
        () => unit.stats?.() ?? {},
        () => ({}),
      );
  return isolated;
}
