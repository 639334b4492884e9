/**
 * GET /v1/lawns/{lawnId}/plan.ics against the real pipeline: a stand-in for the planner unit puts a
 * plan into the station state's `plan` field, the route finds the lawn through the same StationsView
 * the page reads, and ical.js parses what it sends. Access follows http.statusPage as for /v1/stations
 * (with `key`, also `api_key` in the query: a calendar subscription is a URL).
 */
import ICAL from 'ical.js';
import { afterEach, describe, expect, it } from 'vitest';
import { samplePlan, samplePlanState, SAMPLE_SLOTS } from '../../bench/lib/samplePlan.js';
import type { LawnPlan } from '../../src/core/plan/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import { addKey } from '../helpers/httpApp.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { feedThroughBroker, startStationsHarness, type StationsHarness } from '../helpers/statusPage.js';

let harness: StationsHarness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

/** The planner unit's part as the station state carries it: the plan of the station's default lawn (id = station id). */
function standInPlanner(current: () => LawnPlan | undefined): StationUnit {
  return {
    name: 'test-planner',
    stateFragment: (_station, nowMs) => {
      const plan = current();
      return { plan: samplePlanState(plan ? [plan] : [], nowMs) };
    },
  };
}

async function start(env: Record<string, string> = {}): Promise<{ h: StationsHarness; setPlan: (plan: LawnPlan) => Promise<void> }> {
  let plan: LawnPlan | undefined;
  const h = await startStationsHarness({ env, units: [standInPlanner(() => plan)] });
  harness = h;
  await feedThroughBroker(h, 1);
  const setPlan = async (next: LawnPlan) => {
    plan = next;
    h.daemon.service.recompute('garden');
    await waitUntil(() => h.daemon.service.stationState('garden')?.plan?.lawns.garden === next, 'the plan in the state');
  };
  await setPlan(samplePlan('garden', h.clock.now()));
  return { h, setPlan };
}

const get = (h: StationsHarness, url: string, headers: Record<string, string> = {}) => h.http.app.inject({ method: 'GET', url, headers });
const eventsOf = (text: string) =>
  new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));

describe('GET /v1/lawns/{lawnId}/plan.ics', () => {
  it('sends the plan as text/calendar: one event per slot; the same UIDs on a second fetch; SEQUENCE bumped after a change', async () => {
    const { h, setPlan } = await start();
    const first = await get(h, '/v1/lawns/garden/plan.ics');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const events = eventsOf(first.body);
    const plan = h.daemon.service.stationState('garden')!.plan!.lawns.garden!;
    expect(events.map((event) => event.uid)).toEqual(plan.slots.map((slot) => `${slot.id}@mowability`));
    expect(events.map((event) => event.startDate.toJSDate().getTime())).toEqual(plan.slots.map((slot) => slot.startMs));
    // The station's name is its default lawn's; the page's language by Accept-Language.
    expect(events[0]!.summary).toBe('Mowing: Garden');
    expect(new ICAL.Component(ICAL.parse(first.body)).getFirstPropertyValue('x-wr-calname')).toBe('Mowing plan: Garden');

    const second = await get(h, '/v1/lawns/garden/plan.ics');
    expect(second.body).toBe(first.body);

    // The planner moves the second slot by an hour: same UID, SEQUENCE 1.
    await setPlan(
      samplePlan(
        'garden',
        plan.computedAtMs,
        SAMPLE_SLOTS.map((slot, index) => (index === 1 ? { ...slot, from: slot.from + 1, to: slot.to + 1, sequence: 1 } : slot)),
      ),
    );
    const changed = h.daemon.service.stationState('garden')!.plan!.lawns.garden!;
    expect(changed.slots[1]!.id).toBe(plan.slots[1]!.id);
    const after = eventsOf((await get(h, '/v1/lawns/garden/plan.ics')).body);
    expect(after.map((event) => event.uid)).toEqual(events.map((event) => event.uid));
    expect(after.map((event) => event.sequence)).toEqual([0, 1, 0, 0]);
    expect(after[1]!.startDate.toJSDate().getTime()).toBe(plan.slots[1]!.startMs + 3_600_000);
  });

  it('speaks German with lang=de or a German Accept-Language; refuses another lang with the error envelope', async () => {
    const { h } = await start();
    expect(eventsOf((await get(h, '/v1/lawns/garden/plan.ics?lang=de')).body)[0]!.summary).toBe('Mähen: Garden');
    expect(eventsOf((await get(h, '/v1/lawns/garden/plan.ics', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' })).body)[0]!.summary).toBe(
      'Mähen: Garden',
    );
    expect(eventsOf((await get(h, '/v1/lawns/garden/plan.ics?lang=en', { 'accept-language': 'de-DE' })).body)[0]!.summary).toBe(
      'Mowing: Garden',
    );
    const bad = await get(h, '/v1/lawns/garden/plan.ics?lang=fr');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ status: 'error', mfi: null, message: 'Invalid lang: use en or de.' });
  });

  it('answers an unknown lawn with 404 and the API envelope', async () => {
    const { h } = await start();
    const response = await get(h, '/v1/lawns/nowhere/plan.ics');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      status: 'error',
      mfi: null,
      message: 'Unknown lawn. GET /v1/stations/{id} lists the lawns of a station in its plan.',
    });
  });

  it('http.statusPage=key: refused without a key (401) and with an unknown one; a Bearer key or api_key in the URL reads it', async () => {
    const { h } = await start({ MOWABILITY_HTTP_STATUS_PAGE: 'key' });
    const none = await get(h, '/v1/lawns/garden/plan.ics');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ status: 'error', mfi: null, message: 'No API key provided.' });
    expect((await get(h, '/v1/lawns/garden/plan.ics?api_key=mow_not-a-key')).statusCode).toBe(401);
    // An unknown lawn is not told apart from a known one without a key.
    expect((await get(h, '/v1/lawns/nowhere/plan.ics')).statusCode).toBe(401);
    const { key } = await addKey(h.http, 'calendar', { allowGet: true });
    const bearer = await get(h, '/v1/lawns/garden/plan.ics', { authorization: `Bearer ${key}` });
    expect(bearer.statusCode).toBe(200);
    expect(eventsOf(bearer.body)).toHaveLength(SAMPLE_SLOTS.length);
    const inUrl = await get(h, `/v1/lawns/garden/plan.ics?api_key=${encodeURIComponent(key)}`);
    expect(inUrl.statusCode).toBe(200);
    expect(inUrl.body).toBe(bearer.body);
  });

  it('http.statusPage=off: no feed', async () => {
    const { h } = await start({ MOWABILITY_HTTP_STATUS_PAGE: 'off' });
    expect((await get(h, '/v1/lawns/garden/plan.ics')).statusCode).toBe(404);
  });

  it('a known lawn without a plan yet: a valid empty calendar, so a subscription made early keeps working', async () => {
    const h = await startStationsHarness({});
    harness = h;
    await feedThroughBroker(h, 1);
    const response = await get(h, '/v1/lawns/garden/plan.ics');
    expect(response.statusCode).toBe(200);
    expect(eventsOf(response.body)).toEqual([]);
  });
});
