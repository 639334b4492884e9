/**
 * The plan's changes as a Home Assistant notify call (plan.notifyService), end to end: the whole daemon
 * with a station of two lawns whose mower is a Home Assistant `lawn_mower`, the fake Home Assistant
 * (its WebSocket API), the fake Open-Meteo and an injected clock. Every `<base>/<lawn>/plan/changed`
 * is exactly one `call_service` notify.<name> with the changes' reasons, a re-plan without changes is
 * none; Home Assistant refusing or never answering the call neither stops the planner's topic nor its
 * state, and shows in the state's `plan.notify`; the token is never logged. Without any Home
 * Assistant connection the setting is refused at start; in the add-on, the Supervisor's proxy serves.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon.js';
import { mowerControlModule } from '../../src/mower/mowerControlModule.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { RecordingClient, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { FakeHomeAssistant } from '../helpers/mowerSimulators.js';
import { openMeteoDaemonConfig } from '../helpers/openMeteoDaemon.js';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { dryHour } from '../plan/weekForecast.js';
import { weekForecastBody } from '../plan/weekForecast.js';
import { garden, HOUR_MS, WeekDaemon } from '../plan/weekHarness.js';

const MONDAY = Date.parse('2026-06-15T04:00:00Z');
const TOKEN = 'ha-long-lived-secret-4711';
const LAWNS = ['garden', 'back'];

describe('plan changes as a Home Assistant notification', () => {
  let openMeteo: FakeOpenMeteo;
  let ha: FakeHomeAssistant;
  let week: WeekDaemon | undefined;
  let observer: RecordingClient | undefined;

  beforeEach(async () => {
    openMeteo = await FakeOpenMeteo.start();
    ha = await FakeHomeAssistant.start(TOKEN);
  });
  afterEach(async () => {
    await observer?.close();
    observer = undefined;
    await week?.cleanup();
    week = undefined;
    await ha.stop();
    await openMeteo.close();
  });

  const titleOf = (lawnId: string) => `Mähplan geändert: ${garden.lawns.find((lawn) => lawn.id === lawnId)!.name}`;
  const notifyCalls = (lawnId: string) =>
    ha.serviceCalls.filter((call) => call.domain === 'notify' && (call.service_data as { title?: string }).title === titleOf(lawnId));
  const published = (lawnId: string) => observer?.latest.get(`mowability/${lawnId}/plan/changed`)?.count ?? 0;
  /** Moves the clock an hour at a time (same forecast) until a lawn's plan changes; waits until its message is out. */
  async function nextChange(): Promise<string[]> {
    for (let hour = 0; hour < 24; hour++) {
      const counts = LAWNS.map(published);
      week!.clock.ms += HOUR_MS;
      week!.feed(dryHour(week!.clock.ms));
      const plan = await week!.plannedNow('the plans an hour on');
      const changed = LAWNS.filter((lawnId) => plan.lawns[lawnId]!.changes.length > 0);
      if (changed.length === 0) continue;
      await waitUntil(
        () => LAWNS.every((lawnId, index) => published(lawnId) === counts[index]! + (changed.includes(lawnId) ? 1 : 0)),
        'the changes published',
      );
      return changed;
    }
    throw new Error('no plan changed within a day');
  }
  const callsMatchMessages = () => LAWNS.every((lawnId) => notifyCalls(lawnId).length === published(lawnId));

  /** The daemon with the station's mower in Home Assistant (`token` its long-lived token); the first plans made, the observer subscribed. */
  async function startWith(token: string, logs: ReturnType<typeof captureLogger>): Promise<void> {
    week = new WeekDaemon(openMeteo, MONDAY);
    const station = {
      ...garden,
      mower: { control: { enabled: true, kind: 'homeassistant', homeassistant: { url: ha.url, entity: 'lawn_mower.robbi' } } },
    };
    // The forecast waits behind a gate, so the observer is subscribed before the first plan.
    let open: (body: string) => void = () => {};
    openMeteo.script.push({ kind: 'gate', opened: new Promise<string>((resolve) => (open = resolve)) });
    week.daemon = await startDaemon({
      config: openMeteoDaemonConfig({
        temp: week.temp,
        stations: [station],
        openMeteoUrl: openMeteo.baseUrl,
        env: {
          MOWABILITY_TIMEZONE: 'Europe/Berlin',
          MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0',
          MOWABILITY_FORECAST_TIMEOUT_SECONDS: '60',
          MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN: token,
          MOWABILITY_PLAN_NOTIFY_SERVICE: 'notify.mobile_app_phone',
          MOWABILITY_PLAN_NOTIFY_LANGUAGE: 'de',
        },
      }),
      logger: logs.logger,
      clock: week.clock,
    });
    observer = await RecordingClient.connect(week.brokerPort);
    await observer.client.subscribeAsync(['mowability/+/plan/changed'], { qos: 1 });
    week.feed(dryHour(week.clock.ms));
    open(weekForecastBody(week.clock.ms, dryHour));
    await week.plannedNow('the first plans');
  }

  it('sends one notify call per changed plan through the mower connection, none without a change, and survives a failing Home Assistant', async () => {
    const logs = captureLogger('debug');
    await startWith(TOKEN, logs);
    // startWith set both; narrowed here for the checks below.
    week = week!;
    observer = observer!;
    // The first plans are no change (nothing is published), and so no call.
    expect(LAWNS.map((lawnId) => week!.lawnPlan(lawnId)!.changes.length)).toEqual([0, 0]);
    expect(ha.serviceCalls.filter((call) => call.domain === 'notify')).toEqual([]);

    // An hour later the plans change (the hour's ratings): each lawn's message on its topic, and exactly one notify call, in German, with every reason.
    week.clock.ms += HOUR_MS;
    week.feed(dryHour(week.clock.ms));
    const later = await week.plannedNow('the plans an hour later');
    const changed = LAWNS.filter((lawnId) => later.lawns[lawnId]!.changes.length > 0);
    expect(changed.length).toBeGreaterThan(0);
    await waitUntil(
      () => changed.every((lawnId) => published(lawnId) === 1 && notifyCalls(lawnId).length === 1),
      'a call per changed plan',
    );
    for (const lawnId of changed) {
      const message = observer.json(`mowability/${lawnId}/plan/changed`) as { changes: Array<{ reason: { de: string } }> };
      const [call] = notifyCalls(lawnId);
      expect(call!.service).toBe('mobile_app_phone');
      expect(call!.target).toBeUndefined();
      expect(call!.service_data).toEqual({
        title: titleOf(lawnId),
        message: message.changes.map((change) => `• ${change.reason.de}`).join('\n'),
      });
    }
    await waitUntil(() => week!.plan()!.notify?.sent === changed.length, 'the sent calls in the state');
    expect(week.plan()!.notify).toMatchObject({ service: 'notify.mobile_app_phone', failed: 0, last_error: null });
    expect(callsMatchMessages()).toBe(true);

    // Home Assistant refuses the call: the plan still goes out on its topic, the failure shows in the state.
    ha.notify = 'fail';
    const failing = await nextChange();
    await waitUntil(() => week!.plan()!.notify?.failed === failing.length, 'the failed calls in the state').catch((err: unknown) => {
      throw new Error(`${String(err)}: ${JSON.stringify(week!.plan()!.notify)}`);
    });
    await waitUntil(callsMatchMessages, 'the refused change one call');
    expect(week.plan()!.notify!.last_error).toContain('notify.mobile_app_phone');
    expect(week.plan()!.notify!.last_error).toContain('not_found');
    expect(week.plan()!.notify!.last_error).toContain(ha.url);

    // Home Assistant never answers: the planner goes on (the next changes are published, the state made).
    ha.notify = 'silent';
    const silentBefore = ha.serviceCalls.length;
    await nextChange();
    await waitUntil(callsMatchMessages, 'every change still one call');
    expect(ha.serviceCalls.length).toBeGreaterThan(silentBefore);
    expect(week.plan()!.notify).toMatchObject({ sent: changed.length, failed: failing.length });
    expect(week.daemon!.mqtt.stats().units.plan).toMatchObject({ planNotifications: changed.length, planNotifyFailures: failing.length });

    const failures = logs.lines().filter((line) => String(line.msg).includes('plan notification failed'));
    expect(failures).toHaveLength(1);
    expect(logs.text()).not.toContain(TOKEN);
    expect(JSON.stringify(week.daemon!.station.stationState('garden'))).not.toContain(TOKEN);
  });

  it('counts a refused token as a failed call, with the cause, and logs neither token', async () => {
    const logs = captureLogger('debug');
    const wrong = 'revoked-long-lived-token-0815';
    await startWith(wrong, logs);
    await waitUntil(() => ha.authAttempts.includes(wrong), 'the refused login');
    const changed = await nextChange();
    await waitUntil(() => week!.plan()!.notify?.failed === changed.length, 'the failed calls in the state');
    expect(week!.plan()!.notify!.last_error).toContain('not connected to Home Assistant');
    expect(week!.plan()!.notify!.last_error).toContain('refused the token');
    // Nothing reached Home Assistant's services, and the planner went on.
    expect(ha.serviceCalls).toEqual([]);
    expect(logs.text()).not.toContain(wrong);
    expect(JSON.stringify(week!.daemon!.station.stationState('garden'))).not.toContain(wrong);
  });

  it('refuses plan.notifyService at start when there is no Home Assistant connection, saying what it needs', async () => {
    week = new WeekDaemon(openMeteo, MONDAY);
    const config = openMeteoDaemonConfig({
      temp: week.temp,
      stations: [garden],
      openMeteoUrl: openMeteo.baseUrl,
      env: { MOWABILITY_PLAN_NOTIFY_SERVICE: 'notify.mobile_app_phone' },
    });
    await expect(startDaemon({ config, logger: silentLogger, clock: week.clock })).rejects.toThrow(
      /plan\.notifyService .*no Home Assistant connection.*mower\.control.*"homeassistant".*add-on/,
    );
  });

  it('refuses a service that is not notify.<name>, naming the setting', async () => {
    week = new WeekDaemon(openMeteo, MONDAY);
    expect(() =>
      openMeteoDaemonConfig({
        temp: week!.temp,
        stations: [garden],
        openMeteoUrl: openMeteo.baseUrl,
        env: { MOWABILITY_PLAN_NOTIFY_SERVICE: 'light.turn_on' },
      }),
    ).toThrow(/plan\.notifyService.*notify\.<name>/s);
  });
});

describe("the add-on's Home Assistant services without a Home Assistant mower", () => {
  let server: Server | undefined;
  let ha: FakeHomeAssistant | undefined;
  afterEach(async () => {
    await ha?.stop();
    if (server) await new Promise((resolve) => server!.close(resolve));
  });

  it("calls notify through the Supervisor's proxy with the Supervisor's token", async () => {
    server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    ha = await FakeHomeAssistant.start('supervisor-token', 'lawn_mower.none', { server, path: '/core/websocket' });
    const supervisorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settings = { tickSeconds: 60, homeAssistantToken: '', supervisorUrl, supervisorToken: 'supervisor-token' };
    const offer = mowerControlModule.provides!([], { settings, log: silentLogger } as never, { store: undefined } as never);
    const services = offer.homeAssistant!;
    expect(services.shownAs).toContain(supervisorUrl);
    await services.open!();
    await waitUntil(() => ha!.authenticatedClients === 1, 'the connection through the proxy');
    await services.callService('notify', 'mobile_app_phone', { title: 't', message: 'm' });
    expect(ha.serviceCalls).toEqual([
      { domain: 'notify', service: 'mobile_app_phone', service_data: { title: 't', message: 'm' }, target: undefined },
    ]);
    expect(ha.authAttempts).toEqual(['supervisor-token']);
    await services.close!();
  });

  it('offers nothing outside the add-on without a Home Assistant mower', () => {
    const settings = { tickSeconds: 60, homeAssistantToken: '' };
    expect(
      mowerControlModule.provides!([], { settings, log: silentLogger } as never, { store: undefined } as never).homeAssistant,
    ).toBeUndefined();
  });
});
