/**
 * One lawn's failing mower never blanks another's: a station with two lawns, the first driven through a
 * simulated mower, the further one through a real Home Assistant connection to a server that answers
 * every request with HTTP 500 (the WebSocket upgrade fails), then through an adapter whose status
 * throws. The first lawn's mower starts, its status stays in the state; the further lawn's shows its
 * problem; the state fragment carries both, or the healthy one alone (real SQLite ledger, injected clock).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { controlConfigOf } from '../../src/mower/controlConfig.js';
import { MowerControlUnit, type ControlledLawn } from '../../src/mower/mowerControlUnit.js';
import { silentLogger } from '../helpers/mqttHarness.js';
import { SimulatedMower } from '../helpers/mowerSimulators.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';
import { waitUntil } from '../helpers/wait.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';

const T0 = Date.UTC(2026, 5, 10, 7, 0);
const MINUTE = 60_000;

/** A dry station state with a long dry window, as the pipeline publishes it. */
const dry = (nowMs: number) =>
  ({
    station: 'garden',
    index_score: 85,
    main_status: 'OK',
    mowable: true,
    input: { temperature: 20, precipitation_rate: 0 },
    last_reading_at: new Date(nowMs - MINUTE).toISOString(),
    forecast: { stale: false, mowable_for_minutes: 240, rain_expected_in_minutes: null },
  }) as never;

const generic = {
  enabled: true,
  dryRun: false,
  kind: 'mqtt',
  mqtt: {
    commandTopic: 'm/set',
    stateTopic: 'm/state',
    payloads: { start: 's', dock: 'd', pause: 'p' },
    states: { mowing: ['mowing'], docked: ['docked'] },
  },
};

describe("one lawn's failing mower", () => {
  const temp = useTempDatabase();
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  async function unitWith(back: ControlledLawn, backAdapter?: SimulatedMower) {
    const front = new SimulatedMower();
    const clock = { ms: T0, now: () => clock.ms };
    const unit = new MowerControlUnit({
      lawns: [{ id: 'garden', name: 'Front lawn', control: controlConfigOf(generic, 'garden') }, back],
      settings: { tickSeconds: 600, homeAssistantToken: 'eyJ.test-token' },
      store: new MowerRunStore(temp.db),
      log: silentLogger,
      clock,
      baseTopic: 'mowability',
      timeZone: 'UTC',
      recordCut: () => true,
      quietHours: undefined,
      adapterFor: (lawn) => (lawn.id === 'garden' ? front : backAdapter),
    });
    await unit.start();
    closing.push(() => unit.stop());
    unit.onState('garden', dry(clock.ms));
    return { unit, front, clock };
  }

  it('Home Assistant answering 500: the further lawn shows its problem, the first lawn mows', async () => {
    const server: Server = createServer((_request, response) => response.writeHead(500).end('internal error'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closing.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const control = controlConfigOf(
      { enabled: true, dryRun: false, kind: 'homeassistant', homeassistant: { url, entity: 'lawn_mower.back' } },
      'back',
    );
    const { unit, front, clock } = await unitWith({ id: 'back', stationId: 'garden', name: 'Back lawn', control });
    await waitUntil(
      () => /unreachable/.test(unit.controller('back')!.status(clock.ms).connection_problem ?? ''),
      "the back lawn's connection problem",
    );
    await unit.tickAll();
    await waitUntil(() => front.model.activity === 'mowing', 'the front mower started');
    const fragment = unit.stateFragment('garden', clock.ms)!;
    expect(fragment.mower_control).toMatchObject({ lawn: 'garden', activity: 'mowing', alert: null, connection_problem: null });
    expect(fragment.mower_control_lawns!.back).toMatchObject({ name: 'Back lawn', lawn: 'back', activity: 'unknown' });
    expect(fragment.mower_control_lawns!.back!.connection_problem).toMatch(
      /Home Assistant at .* unreachable \(Unexpected server response: 500\)/,
    );
    // "Mow now" on the back lawn: refused or unconfirmed there, never a command to the front mower.
    const received = front.model.received.length;
    await unit.controller('back')!.mowNow();
    clock.ms += 10 * MINUTE;
    await unit.tickAll();
    expect(front.model.received).toHaveLength(received);
    expect(unit.stateFragment('garden', clock.ms)!.mower_control).toMatchObject({ activity: 'mowing', alert: null });
  });

  it("a further lawn's status that throws leaves it out of the state, the first lawn's shown", async () => {
    const broken = new SimulatedMower();
    broken.problem = () => {
      throw new Error('the adapter broke');
    };
    const { unit, clock } = await unitWith(
      { id: 'back', stationId: 'garden', name: 'Back lawn', control: controlConfigOf(generic, 'back') },
      broken,
    );
    await unit.tickAll();
    const fragment = unit.stateFragment('garden', clock.ms)!;
    expect(fragment.mower_control).toMatchObject({ lawn: 'garden' });
    expect(fragment.mower_control_lawns).toBeUndefined();
  });
});
