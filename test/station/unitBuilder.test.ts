/**
 * A station unit cannot reach the pipeline's internals: at start it gets a frozen context holding
 * only a frozen read view of the history (three functions), and a module is built from a frozen
 * context of its own configuration slices, a logger, a throttle and the clock; what one module hands
 * another is wired by the composition root (`wire`), only from modules listed before it, frozen.
 */
import { describe, expect } from 'vitest';
import { buildStationUnits, stationUnits } from '../../src/daemon.js';
import type { StationHistoryView, UnitContext } from '../../src/station/unit.js';
import { defineStationUnit, type UnitBuildContext } from '../../src/station/unitModule.js';
import { buildUnit, buildUnits, unitContext, wire } from '../../src/station/unitBuilder.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';

describe('the station unit contract', () => {
  mqttTest('a started unit sees a frozen history view and nothing else of the pipeline', async ({ mqtt }) => {
    let seen: UnitContext | undefined;
    await mqtt.start(testMqttConfig({ stations: [{ id: 'garden', name: 'Garden', format: 'weewx', topic: 'weewx/loop' }] }), {
      units: [{ name: 'spy', start: async (context) => void (seen = context) }],
    });
    expect(seen).toBeDefined();
    const context = seen!;
    expect(Object.isFrozen(context) && Object.isFrozen(context.history)).toBe(true);
    expect(Object.keys(context)).toEqual(['history']);
    expect(Object.keys(context.history).sort()).toEqual(['assemble', 'buckets', 'lastReadingAtMs', 'observed']);
    // The history service's writing side (flush, prune, its store) is not on the view, not even by a cast.
    const loose = context.history as unknown as Record<string, unknown>;
    for (const internal of ['flush', 'prune', 'start', 'stop', 'clockStepped']) expect(loose[internal]).toBeUndefined();
    expect(Object.getPrototypeOf(context.history)).toBe(Object.prototype);
    expect(() => {
      (context as { history: unknown }).history = {};
    }).toThrow(TypeError);
    expect(context.history.lastReadingAtMs('garden')).toBeNull();
    // Type level: the view has no writing methods.
    // @ts-expect-error flush is not part of StationHistoryView
    expect(context.history.flush).toBeUndefined();
  });

  mqttTest('unitContext binds the four reads and drops every other member', () => {
    const calls: string[] = [];
    const history = {
      assemble: () => {
        calls.push('assemble');
        return {} as never;
      },
      buckets: () => [],
      observed: () => ({ rainSince: () => 0, minTempSince: () => Infinity }),
      lastReadingAtMs: () => 5,
      flush: () => calls.push('flush'),
    } satisfies StationHistoryView & { flush(): unknown };
    const context = unitContext(history);
    expect(context.history.lastReadingAtMs('x')).toBe(5);
    expect((context.history as unknown as { flush?: unknown }).flush).toBeUndefined();
  });

  mqttTest('a module is built from a frozen context of its own slices', () => {
    let built: UnitBuildContext<{ level: number }, { topic: string }> | undefined;
    const module = defineStationUnit<{ level: number }, { topic: string }>({
      name: 'probe',
      config: {
        settings: { key: 'probe', schema: { level: { doc: 'x', format: Number, default: 3 } } },
        station: { key: 'probe', problems: () => undefined },
      },
      create: (context) => ((built = context), { name: 'probe' }),
    });
    const stations = [
      { id: 'a', name: 'A', format: 'weewx', topic: 't', probe: { topic: 'p/a' } },
      { id: 'b', name: 'B', format: 'weewx', topic: 't' },
    ] as never;
    buildUnit(module, {
      config: { stations, mqtt: { baseTopic: 'mow' } },
      logger: silentLogger,
      clock: { now: () => 0 },
      throttle: (log) => new LogThrottle(log),
    });
    expect(Object.isFrozen(built)).toBe(true);
    expect(Object.keys(built!).sort()).toEqual(['baseTopic', 'calculationContext', 'clock', 'log', 'settings', 'stations', 'throttle']);
    expect(built!.settings).toEqual({ level: 3 });
    expect(built!.stations).toEqual([{ id: 'a', name: 'A', format: 'weewx', settings: { topic: 'p/a' } }]);
    expect(built!.baseTopic).toBe('mow');
    // @ts-expect-error nor a database: a unit's own store is wired into it by the composition root
    expect(built!.store).toBeUndefined();
    // @ts-expect-error the build context has no pipeline, history or configuration beyond the slices
    expect(built!.pipeline).toBeUndefined();
    // @ts-expect-error nor the configuration's other settings
    expect(built!.config).toBeUndefined();
  });

  mqttTest('an everyStation module sees every station with its location and calculation context', () => {
    let built: UnitBuildContext<undefined, { topic: string } | undefined> | undefined;
    const module = defineStationUnit<undefined, { topic: string } | undefined, []>({
      name: 'all',
      config: { station: { key: 'probe', problems: () => undefined } },
      everyStation: true,
      create: (context) => ((built = context), []),
    });
    const location = { latitude: 52.5, longitude: 13.4 };
    const stations = [
      { id: 'a', name: 'A', format: 'weewx', topic: 't', probe: { topic: 'p/a' }, lawn: { soilType: 'sand' } },
      { id: 'b', name: 'B', format: 'weewx', topic: 't', location },
    ] as never;
    const config = { stations, mqtt: { baseTopic: 'mow' }, timezone: 'Europe/Berlin', lawn: { soilType: 'clay' as const } };
    expect(buildUnit(module, { config, logger: silentLogger, clock: { now: () => 0 }, throttle: (log) => new LogThrottle(log) })).toEqual(
      [],
    );
    expect(built!.stations).toEqual([
      { id: 'a', name: 'A', format: 'weewx', settings: { topic: 'p/a' } },
      { id: 'b', name: 'B', format: 'weewx', settings: undefined, location },
    ]);
    // The core's context: a station's own lawn profile over the configured one; without a station, the configured one.
    expect(built!.calculationContext(5, 'a')).toMatchObject({ nowMs: 5, timeZone: 'Europe/Berlin', lawn: { soilType: 'sand' } });
    expect(built!.calculationContext(5).lawn).toEqual({ soilType: 'clay' });
  });

  describe('what one module hands another (wire)', () => {
    const deps = {
      config: { stations: [], mqtt: { baseTopic: 'mow' } },
      logger: silentLogger,
      clock: { now: () => 0 },
      throttle: (log: typeof silentLogger) => new LogThrottle(log),
    };
    const provider = defineStationUnit<undefined, undefined, [], undefined, { greeting: { hello(): string } }>({
      name: 'provider',
      create: () => [],
      provides: () => ({ greeting: { hello: () => 'hi' } }),
    });
    const user = (seen: Array<{ hello(): string }>) =>
      defineStationUnit<undefined, undefined, [], { greeting: { hello(): string } }>({
        name: 'user',
        create: (_context, { greeting }) => (seen.push(greeting), []),
      });

    mqttTest('a wired module gets what a module before it provides, frozen', () => {
      const seen: Array<{ hello(): string }> = [];
      buildUnits([provider, wire(user(seen), ({ from }) => ({ greeting: from(provider).greeting }))], deps);
      expect(seen.map((service) => service.hello())).toEqual(['hi']);
      expect(() => {
        (seen[0] as { hello: unknown }).hello = () => 'replaced';
      }).toThrow(TypeError);
    });

    mqttTest('the order rule: a module wired from one listed after it, or not listed, is told which and why', () => {
      const wired = wire(user([]), ({ from }) => ({ greeting: from(provider).greeting }));
      expect(() => buildUnits([wired, provider], deps)).toThrow(
        /station unit "user" is wired with what "provider" provides, which comes after it in stationUnits\(\) \(user, provider\)/,
      );
      expect(() => buildUnits([wired], deps)).toThrow(
        /station unit "user" is wired with what "provider" provides, which stationUnits\(\) does not list/,
      );
    });

    mqttTest('the wiring is typed: a need of the wrong type does not compile', () => {
      const other = defineStationUnit<undefined, undefined, [], undefined, { count: number }>({
        name: 'other',
        create: () => [],
        provides: () => ({ count: 1 }),
      });
      // @ts-expect-error a number is not the greeting the user needs
      const wrong = wire(user([]), ({ from }) => ({ greeting: from(other).count }));
      expect(wrong.name).toBe('user');
    });

    mqttTest(
      "the daemon's wiring: the forecast gets the lawn memory's quiet hours and the modelled module's carrier; a modelled station needs the readings",
      () => {
        const forecast = stationUnits().find((entry) => entry.name === 'forecast')!;
        expect('needs' in forecast).toBe(true);
        // A modelled station hands in readings: without the station side's acceptReading the build says so.
        const stations = [{ id: 'home', name: 'Home', format: 'open-meteo', topic: 'x', location: { latitude: 1, longitude: 2 } }] as never;
        expect(() => buildStationUnits({ config: { ...deps.config, stations }, logger: silentLogger, clock: deps.clock })).toThrow(
          /station unit "modelled" hands in readings .* wire it with `readings`/,
        );
      },
    );
  });
});
