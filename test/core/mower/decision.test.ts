import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  awaitingFirstState,
  CLOCK_SETTLE_MINUTES,
  decide,
  type DecisionContext,
  type DecisionSettings,
  type LedgerView,
  type MowerActivity,
  type StationView,
} from '../../../src/core/mower/decision.js';
import {
  baseSettings,
  context,
  dryStation,
  emptyLedger,
  lastCommandArb,
  MINUTE,
  mostly,
  NOW,
  settingsArb,
  stationArb,
} from './decisionArbitraries.js';

const settings: DecisionSettings = { ...baseSettings, runMinutes: 90, minGapHours: 20 };

const ledgerArb: fc.Arbitrary<LedgerView> = fc.record({
  current: mostly(
    null,
    fc.option(
      fc.record({
        by: fc.constantFrom('daemon' as const, 'user' as const, 'schedule' as const),
        startMs: fc.integer({ min: NOW - 300 * MINUTE, max: NOW }),
      }),
      { nil: null },
    ),
  ),
  lastCompletedEndMs: mostly<number | null>(null, fc.option(fc.integer({ min: NOW - 96 * 60 * MINUTE, max: NOW }), { nil: null })),
  userDockedDay: mostly<string | null>(null, fc.constantFrom(null, '2026-06-09', '2026-06-10')),
  learnedRunMinutes: mostly<number | null>(null, fc.option(fc.integer({ min: 10, max: 300 }), { nil: null })),
  runsThisWeek: mostly(0, fc.integer({ min: 0, max: 10 })),
  mowedMinutesThisWeek: mostly(0, fc.integer({ min: 0, max: 1200 })),
  lastCommand: lastCommandArb(600),
});
const anySettingsArb = settingsArb(72);
const activityArb = mostly<MowerActivity>(
  'docked',
  fc.constantFrom<MowerActivity>('mowing', 'docked', 'paused', 'returning', 'error', 'unknown'),
);
const contextArb: fc.Arbitrary<DecisionContext> = fc.record({
  nowMs: fc.constant(NOW),
  today: fc.constant('2026-06-10'),
  shuttingDown: mostly(false, fc.boolean()),
  automatic: mostly(true, fc.boolean()),
  requested: fc.boolean(),
  clockSteppedAtMs: mostly<number | null>(null, fc.option(fc.integer({ min: NOW - 60 * MINUTE, max: NOW }), { nil: null })),
  commandPending: mostly(false, fc.boolean()),
  callsLeft: mostly<number | null>(null, fc.option(fc.integer({ min: 0, max: 5 }), { nil: null })),
  quiet: mostly<DecisionContext['quiet']>(undefined, fc.constant({ en: 'night ban', de: 'Nachtruhe' })),
  mower: activityArb,
  startedAtMs: mostly(NOW - 600 * MINUTE, fc.integer({ min: NOW - 300 * MINUTE, max: NOW })),
  firstStateSeen: mostly(true, fc.boolean()),
});

describe('decide: the start rules', () => {
  it('starts on a dry morning with a long enough window and a docked mower', () => {
    const decision = decide(dryStation, emptyLedger, settings, context);
    expect(decision.action).toBe('start');
    expect(decision.reason.de).toContain('240');
  });

  it('never starts in quiet hours, in rain, before rain within the lead, into a short window, on a stale station or after a clock step', () => {
    fc.assert(
      fc.property(stationArb, ledgerArb, anySettingsArb, contextArb, (station, ledger, config, ctx) => {
        const decision = decide(station, ledger, config, ctx);
        if (decision.action !== 'start') return;
        const run = ledger.learnedRunMinutes ?? config.runMinutes;
        expect(ctx.quiet).toBeUndefined();
        expect(station.raining).toBe(false);
        expect(station.rainExpectedInMinutes === null || station.rainExpectedInMinutes > config.rainLeadMinutes).toBe(true);
        expect(station.mowableForMinutes).not.toBeNull();
        expect(station.mowableForMinutes!).toBeGreaterThanOrEqual(run);
        expect(station.rainExpectedInMinutes === null || station.rainExpectedInMinutes >= run).toBe(true);
        expect(station.lastReadingAtMs).not.toBeNull();
        expect(ctx.nowMs - station.lastReadingAtMs!).toBeLessThanOrEqual(config.staleMinutes * MINUTE);
        expect(ctx.clockSteppedAtMs === null || ctx.nowMs - ctx.clockSteppedAtMs >= CLOCK_SETTLE_MINUTES * MINUTE).toBe(true);
        expect(ctx.mower).toBe('docked');
        expect(ctx.shuttingDown).toBe(false);
        expect(ctx.commandPending).toBe(false);
        expect(station.mowable && station.known).toBe(true);
        expect(ctx.callsLeft === null || ctx.callsLeft >= 1).toBe(true);
        expect(ledger.lastCompletedEndMs === null || ctx.nowMs - ledger.lastCompletedEndMs >= config.minGapHours * 60 * MINUTE).toBe(true);
        if (config.respectUserDock) expect(ledger.userDockedDay).not.toBe(ctx.today);
        if (config.runsPerWeek !== null) expect(ledger.runsThisWeek).toBeLessThan(config.runsPerWeek);
      }),
      { numRuns: 5000 },
    );
  });

  it('never sends anything while the daemon stops', () => {
    fc.assert(
      fc.property(stationArb, ledgerArb, anySettingsArb, contextArb, (station, ledger, config, ctx) => {
        expect(decide(station, ledger, config, { ...ctx, shuttingDown: true }).action).toBe('none');
      }),
    );
  });

  it('refuses with the rule that failed, in both languages', () => {
    expect(decide({ ...dryStation, rainExpectedInMinutes: 40 }, emptyLedger, { ...settings, rainLeadMinutes: 30 }, context)).toMatchObject({
      action: 'none',
      code: 'window_short',
    });
    expect(decide({ ...dryStation, mowableForMinutes: 40 }, emptyLedger, settings, context).reason).toEqual({
      en: 'mowable for 40 min only, a run takes 90 min',
      de: 'nur 40 Min. mähbar, ein Lauf dauert 90 Min.',
    });
    expect(decide(dryStation, { ...emptyLedger, userDockedDay: '2026-06-10' }, settings, context).code).toBe('user_docked_today');
    expect(decide(dryStation, emptyLedger, settings, { ...context, automatic: false }).code).toBe('automatic_off');
    expect(decide(dryStation, emptyLedger, settings, { ...context, automatic: false, requested: true }).action).toBe('start');
    expect(decide(dryStation, emptyLedger, settings, { ...context, mower: 'error' }).code).toBe('mower_error');
    expect(decide(dryStation, emptyLedger, settings, { ...context, callsLeft: 0 }).code).toBe('budget_spent');
    expect(decide(dryStation, { ...emptyLedger, learnedRunMinutes: 300 }, settings, context).code).toBe('window_short');
  });
});

/** A mower that follows commands: a start mows at the next tick, a dock returns and is docked a tick later. */
interface Sim {
  mower: MowerActivity;
  ledger: LedgerView;
  pending: boolean;
}

function step(
  sim: Sim,
  station: StationView,
  config: DecisionSettings,
  nowMs: number,
  quiet: DecisionContext['quiet'],
  more: Partial<DecisionContext> = {},
): ReturnType<typeof decide> {
  // The mower's own progress first: returning → docked, a pending command confirmed.
  if (sim.mower === 'returning') sim.mower = 'docked';
  sim.pending = false;
  const decision = decide(station, sim.ledger, config, {
    ...context,
    ...more,
    nowMs,
    quiet,
    mower: sim.mower,
    commandPending: sim.pending,
  });
  if (decision.action === 'start') {
    sim.mower = 'mowing';
    sim.pending = true;
    sim.ledger = { ...sim.ledger, current: { by: 'daemon', startMs: nowMs }, lastCommand: { action: 'start', atMs: nowMs } };
  } else if (decision.action === 'dock') {
    sim.mower = 'returning';
    sim.pending = true;
    sim.ledger = { ...sim.ledger, current: null, lastCompletedEndMs: null, lastCommand: { action: 'dock', atMs: nowMs } };
  }
  return decision;
}

describe('decide: docking', () => {
  it('docks a run of its own exactly once per trigger, whatever the trigger', () => {
    const triggers: Array<[string, Partial<StationView>, DecisionContext['quiet']]> = [
      ['not mowable', { mowable: false }, undefined],
      ['rain now', { raining: true }, undefined],
      ['rain within the lead', { rainExpectedInMinutes: 10 }, undefined],
      ['quiet hours', {}, { en: 'night ban', de: 'Nachtruhe' }],
      ['stale', { lastReadingAtMs: NOW - 120 * MINUTE }, undefined],
      ['unknown', { known: false }, undefined],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...triggers),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        ([, change, quiet], ticks, startedAgo) => {
          const sim: Sim = {
            mower: 'mowing',
            pending: false,
            ledger: { ...emptyLedger, current: { by: 'daemon', startMs: NOW - startedAgo * MINUTE } },
          };
          let docks = 0;
          for (let tick = 0; tick < ticks; tick++) {
            const nowMs = NOW + tick * MINUTE;
            const station = { ...dryStation, lastReadingAtMs: nowMs - MINUTE, ...change };
            if (step(sim, station, settings, nowMs, quiet).action === 'dock') docks++;
          }
          // The soft trigger waits for the gap; every hard trigger docks at the first tick. Never twice.
          const softWait = change.mowable === false ? Math.max(0, settings.minCommandGapMinutes - startedAgo) : 0;
          expect(docks).toBe(ticks > softWait ? 1 : 0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves a run started by hand alone under "respect", docks it for rain under "dockOnRain"', () => {
    const ledger: LedgerView = { ...emptyLedger, current: { by: 'user', startMs: NOW - 30 * MINUTE } };
    const mowing = { ...context, mower: 'mowing' as const };
    expect(decide({ ...dryStation, raining: true }, ledger, settings, mowing).action).toBe('none');
    expect(decide({ ...dryStation, mowable: false }, ledger, { ...settings, userRuns: 'dockOnRain' }, mowing).action).toBe('none');
    expect(decide({ ...dryStation, raining: true }, ledger, { ...settings, userRuns: 'dockOnRain' }, mowing).code).toBe('raining');
    expect(decide({ ...dryStation, blocked: true, mowable: false }, ledger, { ...settings, userRuns: 'dockOnRain' }, mowing).action).toBe(
      'dock',
    );
    expect(decide({ ...dryStation, mowable: false }, ledger, { ...settings, userRuns: 'takeOver' }, mowing).action).toBe('dock');
  });
});

describe('decide: no flapping', () => {
  it('an index that moves by one point around the threshold never sends two commands within minCommandGapMinutes', () => {
    // The hysteresis turns a one-point move into at most a flip of `mowable`; everything else stays dry and fresh.
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 10, maxLength: 200 }), fc.integer({ min: 1, max: 60 }), (flags, gap) => {
        const config = { ...settings, minCommandGapMinutes: gap, minGapHours: 0 };
        const sim: Sim = { mower: 'docked', pending: false, ledger: emptyLedger };
        const commands: number[] = [];
        flags.forEach((mowable, tick) => {
          const nowMs = NOW + tick * MINUTE;
          const action = step(sim, { ...dryStation, mowable, lastReadingAtMs: nowMs }, config, nowMs, undefined).action;
          if (action !== 'none') commands.push(nowMs);
        });
        for (let index = 1; index < commands.length; index++)
          expect(commands[index]! - commands[index - 1]!).toBeGreaterThanOrEqual(gap * MINUTE);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('decide: the first state after a start', () => {
  it('sends nothing before the first state within staleMinutes of the start', () => {
    fc.assert(
      fc.property(
        stationArb,
        ledgerArb,
        anySettingsArb,
        contextArb,
        fc.integer({ min: 0, max: 10_000 }),
        (station, ledger, config, ctx, share) => {
          // Anywhere inside the wait: from the start to just before staleMinutes after it.
          const startedAtMs = ctx.nowMs - Math.floor(((config.staleMinutes * MINUTE - 1) * share) / 10_000);
          const waiting = { ...ctx, startedAtMs, firstStateSeen: false };
          expect(awaitingFirstState(config, waiting)).toBe(true);
          const decision = decide(station, ledger, config, waiting);
          expect(decision.action).toBe('none');
          if (!ctx.shuttingDown) expect(decision.code).toBe('awaiting_first_state');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('after the wait, a station still without a state docks a mowing mower of its own exactly once', () => {
    // The daemon restarted mid-run (the ledger's open run is its own) and the pipeline never computed a state.
    const unknownStation: StationView = { ...dryStation, known: false, lastReadingAtMs: null };
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 120 }), fc.integer({ min: 1, max: 5 }), (staleMinutes, tickMinutes) => {
        const config = { ...settings, staleMinutes };
        const startedAtMs = NOW;
        const sim: Sim = {
          mower: 'mowing',
          pending: false,
          ledger: { ...emptyLedger, current: { by: 'daemon', startMs: NOW - 30 * MINUTE } },
        };
        const docks: number[] = [];
        for (let minute = 0; minute <= 3 * staleMinutes; minute += tickMinutes) {
          const nowMs = startedAtMs + minute * MINUTE;
          const decision = step(sim, unknownStation, config, nowMs, undefined, { startedAtMs, firstStateSeen: false });
          if (decision.action !== 'none') docks.push(minute);
          if (minute < staleMinutes) expect(decision.code).toBe('awaiting_first_state');
        }
        expect(docks).toHaveLength(1);
        expect(docks[0]).toBeGreaterThanOrEqual(staleMinutes);
        expect(docks[0]! - staleMinutes).toBeLessThan(tickMinutes);
      }),
      { numRuns: 300 },
    );
  });

  it('once the first state arrived the wait is over, however early', () => {
    const decision = decide(dryStation, emptyLedger, settings, { ...context, startedAtMs: NOW - MINUTE, firstStateSeen: true });
    expect(decision.action).toBe('start');
  });
});
