/**
 * A station unit cannot reach the pipeline's internals: at start it gets a frozen context holding
 * only a frozen read view of the history (three functions), and a module is built from a frozen
 * context of its own configuration slices, a logger, a throttle, the clock and `use`, which finds
 * only services the station side or an earlier module declared (by token, not by name), frozen.
 */
import { cutRecorderService } from '../../src/station/mowerServices.js';
import { describe, expect } from 'vitest';
import { buildStationUnits, stationUnits } from '../../src/daemon.js';
import { buildUnit, buildUnits, defineStationUnit, forecastCarrierService, provide, quietHoursService, unitContext, unitService, type StationHistoryView, type StationUnitModule, type UnitBuildContext, type UnitContext } from '../../src/station/unit.js';
import { readingsService } from '../../src/station/facade.js';
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
    expect(() => { (context as { history: unknown }).history = {}; }).toThrow(TypeError);
    expect(context.history.lastReadingAtMs('garden')).toBeNull();
    // Type level: the view has no writing methods.
    // @ts-expect-error flush is not part of StationHistoryView
    expect(context.history.flush).toBeUndefined();
  });

  mqttTest('unitContext binds the four reads and drops every other member', () => {
    const calls: string[] = [];
    const history = {
      assemble: () => { calls.push('assemble'); return {} as never; },
      buckets: () => [], observed: () => ({ rainSince: () => 0, minTempSince: () => Infinity }),
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
      config: { settings: { key: 'probe', schema: { level: { doc: 'x', format: Number, default: 3 } } }, station: { key: 'probe', problems: () => undefined } },
      create: (context) => ((built = context), { name: 'probe' }),
    });
    const stations = [{ id: 'a', name: 'A', format: 'weewx', topic: 't', probe: { topic: 'p/a' } }, { id: 'b', name: 'B', format: 'weewx', topic: 't' }] as never;
    buildUnit(module, { config: { stations, mqtt: { baseTopic: 'mow' } }, logger: silentLogger, clock: { now: () => 0 }, throttle: (log) => new LogThrottle(log) });
    expect(Object.isFrozen(built)).toBe(true);
    expect(Object.keys(built!).sort()).toEqual(['baseTopic', 'calculationContext', 'clock', 'log', 'settings', 'stations', 'throttle', 'use']);
    expect(built!.settings).toEqual({ level: 3 });
    expect(built!.stations).toEqual([{ id: 'a', name: 'A', format: 'weewx', settings: { topic: 'p/a' } }]);
    expect(built!.baseTopic).toBe('mow');
    expect(built!.store).toBeUndefined();
    // @ts-expect-error the build context has no pipeline, history or configuration beyond the slices
    expect(built!.pipeline).toBeUndefined();
    // @ts-expect-error nor the configuration's other settings
    expect(built!.config).toBeUndefined();
  });

  mqttTest('an everyStation module sees every station with its location and calculation context; the store only as given', () => {
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
    const store = { all: async () => [], run: async () => ({ changes: 0, lastID: 0 }), transaction: async () => undefined as never, dataVersion: async () => 1 };
    const config = { stations, mqtt: { baseTopic: 'mow' }, timezone: 'Europe/Berlin', lawn: { soilType: 'clay' as const } };
    expect(buildUnit(module, { config, logger: silentLogger, clock: { now: () => 0 }, throttle: (log) => new LogThrottle(log), store })).toEqual([]);
    expect(built!.stations).toEqual([{ id: 'a', name: 'A', format: 'weewx', settings: { topic: 'p/a' } }, { id: 'b', name: 'B', format: 'weewx', settings: undefined, location }]);
    expect(built!.store).toBe(store);
    // The core's context: a station's own lawn profile over the configured one; without a station, the configured one.
    expect(built!.calculationContext(5, 'a')).toMatchObject({ nowMs: 5, timeZone: 'Europe/Berlin', lawn: { soilType: 'sand' } });
    expect(built!.calculationContext(5).lawn).toEqual({ soilType: 'clay' });
    // The store is the database's statements only: no migrations, no closing it for everyone.
    // @ts-expect-error close is not part of UnitStore
    expect(built!.store!.close).toBeUndefined();
  });

  describe('services between units (use)', () => {
    const deps = { config: { stations: [], mqtt: { baseTopic: 'mow' } }, logger: silentLogger, clock: { now: () => 0 }, throttle: (log: typeof silentLogger) => new LogThrottle(log) };
    const greeting = unitService<{ hello(): string }>('greeting', 'a test service');
    const provider: StationUnitModule = defineStationUnit<undefined, undefined, []>({
      name: 'provider',
      create: () => [],
      provides: { services: [greeting], values: () => [provide(greeting, { hello: () => 'hi' })] },
    });
    const user = (seen: string[]): StationUnitModule => defineStationUnit<undefined, undefined, []>({ name: 'user', create: ({ use }) => (seen.push(use(greeting).hello()), []) });

    mqttTest('a module uses what a module before it provides, frozen', () => {
      const seen: string[] = [];
      let service: { hello(): string } | undefined;
      const spy = defineStationUnit<undefined, undefined, []>({ name: 'spy', create: ({ use }) => ((service = use(greeting)), []) });
      buildUnits([provider, user(seen), spy], deps);
      expect(seen).toEqual(['hi']);
      expect(Object.isFrozen(service)).toBe(true);
      expect(() => { (service as { hello: unknown }).hello = () => 'replaced'; }).toThrow(TypeError);
    });

    mqttTest('the order rule: a module listed before its provider is told who provides it and why it cannot', () => {
      expect(() => buildUnits([user([]), provider], deps)).toThrow(/station unit "user" uses the service "greeting" \(a test service\) provided by "provider", which comes after it in stationUnits\(\) \(user, provider\)/);
    });

    mqttTest('a missing need names the service and the module; a look-alike token finds nothing', () => {
      expect(() => buildUnits([user([])], deps)).toThrow(/station unit "user" uses the service "greeting" \(a test service\), which nothing provides/);
      // Reaching for the pipeline or another service by name: a token with the same name is not the token.
      const forged = unitService<unknown>('greeting', 'forged');
      const thief = defineStationUnit<undefined, undefined, []>({ name: 'thief', create: ({ use }) => (use(forged), []) });
      expect(() => buildUnits([provider, thief], deps)).toThrow(/nothing provides/);
      const pipeline = unitService<unknown>('pipeline', 'the pipeline itself');
      const prober = defineStationUnit<undefined, undefined, []>({ name: 'prober', create: ({ use }) => (use(pipeline), []) });
      expect(() => buildUnits([prober], { ...deps, services: [provide(readingsService, () => 'not_running')] })).toThrow(/"pipeline".*nothing provides/);
    });

    mqttTest('a module provides only what it declares, and every service it declares', () => {
      const other = unitService<number>('other', 'undeclared');
      const undeclared = defineStationUnit<undefined, undefined, []>({ name: 'liar', create: () => [], provides: { services: [greeting], values: () => [provide(other, 1)] } });
      expect(() => buildUnits([undeclared], deps)).toThrow(/provides the service "other" without listing it/);
      const silent = defineStationUnit<undefined, undefined, []>({ name: 'mute', create: () => [], provides: { services: [greeting], values: () => [] } });
      expect(() => buildUnits([silent], deps)).toThrow(/lists the service\(s\) "greeting" in provides.services but gave no value/);
    });

    mqttTest("the daemon's modules: the lawn memory provides the quiet hours and the modelled module the carrier before the forecast uses them", () => {
      const names = stationUnits().map((module) => module.name);
      const index = (name: string) => names.indexOf(name);
      expect(index('lawn')).toBeLessThan(index('forecast'));
      expect(index('modelled')).toBeLessThan(index('forecast'));
      expect(stationUnits().find((module) => module.name === 'lawn')!.provides!.services).toEqual([quietHoursService, cutRecorderService]);
      expect(stationUnits().find((module) => module.name === 'modelled')!.provides!.services).toEqual([forecastCarrierService]);
      // A modelled station needs the station side's readings service: without it the build says so.
      const stations = [{ id: 'home', name: 'Home', format: 'open-meteo', topic: 'x', location: { latitude: 1, longitude: 2 } }] as never;
      expect(() => buildStationUnits({ config: { ...deps.config, stations }, logger: silentLogger, clock: deps.clock })).toThrow(/station unit "modelled" uses the service "readings"/);
    });
  });
});
