/**
 * Robot mower simulators for the mower control's tests:
 *
 * - `SimulatedMower`: an in-process mower behind the adapter contract (src/mower/adapter.ts) that
 *   mows, docks and pauses on command, can ignore commands, answer late (`slow`: the activity follows
 *   only on `progress()`), go to error and be started by hand;
 * - `FakeHomeAssistant`: Home Assistant's WebSocket API as documented
 *   (https://developers.home-assistant.io/docs/api/websocket: auth_required → auth → auth_ok /
 *   auth_invalid, subscribe_events state_changed, get_states, call_service with result messages) on
 *   an ephemeral port, with one `lawn_mower` entity that behaves like SimulatedMower;
 * - `mqttMowerOnBroker`: a generic MQTT mower or an OpenMower on a real broker, a real mqtt.js client.
 */
import { once } from 'node:events';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import { WebSocketServer, type WebSocket } from 'ws';
import { expect } from 'vitest';
import { calculationContext } from '../../src/config/calculationContext.js';
import { loadConfig } from '../../src/config/load.js';
import type { ForecastSettings } from '../../src/config/openMeteoSettings.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { ForecastUnit } from '../../src/forecast/forecastUnit.js';
import { controlConfigOf } from '../../src/mower/controlConfig.js';
import { MowerControlUnit, type MowerControlOptions } from '../../src/mower/mowerControlUnit.js';
import type { Database } from '../../src/store/database.js';
import { ForecastStore } from '../../src/store/forecastStore.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';
import { publishOnce, reading, silentLogger, waitUntil, type RunningDaemon } from './mqttHarness.js';
import type { MowerActivity } from '../../src/core/mower/decision.js';
import type { MowerAdapter, MowerCommand } from '../../src/mower/adapter.js';

/** The mower model both simulators share. */
export class MowerModel {
  activity: MowerActivity = 'docked';
  /** Commands to ignore silently (a lost command), counted down. */
  ignoreNext = 0;
  /** Commands take effect only on progress() (a mower that answers slowly). */
  slow = false;
  readonly received: MowerCommand[] = [];
  readonly #queued: MowerCommand[] = [];
  readonly #listeners: Array<(activity: MowerActivity) => void> = [];

  onChange(listener: (activity: MowerActivity) => void): void {
    this.#listeners.push(listener);
  }

  command(command: MowerCommand): void {
    this.received.push(command);
    if (this.ignoreNext > 0) {
      this.ignoreNext--;
      return;
    }
    if (this.slow) this.#queued.push(command);
    else this.#apply(command);
  }

  /** A slow mower carries out what it was told. */
  progress(): void {
    for (const command of this.#queued.splice(0)) this.#apply(command);
  }

  /** The mower changes by itself (the user, its schedule, the end of a run, a fault). */
  set(activity: MowerActivity): void {
    this.activity = activity;
    for (const listener of this.#listeners) listener(activity);
  }

  #apply(command: MowerCommand): void {
    if (this.activity === 'error') return;
    this.set(command === 'start' ? 'mowing' : command === 'dock' ? 'returning' : 'paused');
  }
}

export class SimulatedMower implements MowerAdapter {
  readonly kind = 'simulated';
  readonly model = new MowerModel();
  #open = false;
  sendFails = false;

  async open(): Promise<void> {
    this.#open = true;
    // The first report, like a connection's initial state.
    queueMicrotask(() => this.model.set(this.model.activity));
  }

  async close(): Promise<void> {
    this.#open = false;
  }

  async send(command: MowerCommand): Promise<void> {
    if (!this.#open) throw new Error('closed');
    if (this.sendFails) throw new Error('connection refused');
    this.model.command(command);
  }

  activity(): MowerActivity {
    return this.model.activity;
  }

  onActivity(listener: (activity: MowerActivity) => void): void {
    this.model.onChange(listener);
  }

  problem(): string | undefined {
    return undefined;
  }
}

interface HaClient {
  socket: WebSocket;
  authenticated: boolean;
  subscriptions: number[];
}

/** Home Assistant's WebSocket API with one lawn_mower entity (and nothing else). */
export class FakeHomeAssistant {
  readonly model = new MowerModel();
  readonly serviceCalls: Array<{ domain: string; service: string; service_data: unknown; target: unknown }> = [];
  readonly authAttempts: string[] = [];
  /** How `notify.*` calls are answered: success, an error, or no answer at all. */
  notify: 'ok' | 'fail' | 'silent' = 'ok';
  readonly #server: WebSocketServer;
  readonly #clients = new Set<HaClient>();
  readonly #token: string;
  readonly #entity: string;

  private constructor(server: WebSocketServer, token: string, entity: string) {
    this.#server = server;
    this.#token = token;
    this.#entity = entity;
    server.on('connection', (socket) => this.#accept(socket));
    this.model.onChange(() => this.#broadcast());
  }

  /** `on`: serve the API on an HTTP server that listens already, at `path` (the add-on's fake Supervisor: /core/websocket). */
  static async start(token: string, entity = 'lawn_mower.robbi', on?: { server: HttpServer; path: string }): Promise<FakeHomeAssistant> {
    if (on) return new FakeHomeAssistant(new WebSocketServer({ server: on.server, path: on.path }), token, entity);
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/websocket' });
    await once(server, 'listening');
    return new FakeHomeAssistant(server, token, entity);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get authenticatedClients(): number {
    return [...this.#clients].filter((client) => client.authenticated).length;
  }

  async stop(): Promise<void> {
    for (const client of this.#clients) client.socket.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #state(): Record<string, unknown> {
    return {
      entity_id: this.#entity,
      state: this.model.activity,
      attributes: { friendly_name: 'Robbi', supported_features: 7 },
      last_changed: new Date().toISOString(),
    };
  }

  #accept(socket: WebSocket): void {
    const client: HaClient = { socket, authenticated: false, subscriptions: [] };
    this.#clients.add(client);
    socket.on('close', () => this.#clients.delete(client));
    socket.send(JSON.stringify({ type: 'auth_required', ha_version: '2025.6.0' }));
    socket.on('message', (data: Buffer) => this.#onMessage(client, JSON.parse(data.toString('utf8')) as Record<string, unknown>));
  }

  #onMessage(client: HaClient, message: Record<string, unknown>): void {
    const send = (body: Record<string, unknown>) => client.socket.send(JSON.stringify(body));
    if (!client.authenticated) {
      if (message.type !== 'auth') return client.socket.close();
      this.authAttempts.push(String(message.access_token));
      if (message.access_token !== this.#token) {
        send({ type: 'auth_invalid', message: 'Invalid access token or password' });
        return client.socket.close();
      }
      client.authenticated = true;
      return send({ type: 'auth_ok', ha_version: '2025.6.0' });
    }
    const id = message.id as number;
    if (message.type === 'subscribe_events' && message.event_type === 'state_changed') {
      client.subscriptions.push(id);
      return send({ id, type: 'result', success: true, result: null });
    }
    if (message.type === 'get_states') return send({ id, type: 'result', success: true, result: [this.#state()] });
    if (message.type === 'call_service') {
      const call = message as unknown as FakeHomeAssistant['serviceCalls'][number];
      this.serviceCalls.push({ domain: call.domain, service: call.service, service_data: call.service_data, target: call.target });
      if (call.domain === 'notify') {
        // A notify service: as HA answers (success, or not_found for a service it does not have), or never (slow).
        if (this.notify === 'silent') return;
        if (this.notify === 'fail')
          return send({
            id,
            type: 'result',
            success: false,
            error: { code: 'not_found', message: `Service notify.${call.service} not found.` },
          });
        return send({ id, type: 'result', success: true, result: { context: { id: 'ctx', parent_id: null, user_id: 'u' } } });
      }
      const entity = (call.target as { entity_id?: unknown } | undefined)?.entity_id;
      const command = serviceCommand(call.domain, call.service);
      if (entity !== this.#entity || !command)
        return send({
          id,
          type: 'result',
          success: false,
          error: { code: 'not_found', message: `Service ${call.domain}.${call.service} not found.` },
        });
      this.model.command(command);
      return send({ id, type: 'result', success: true, result: { context: { id: 'ctx', parent_id: null, user_id: 'u' } } });
    }
    send({ id, type: 'result', success: false, error: { code: 'unknown_command', message: 'Unknown command.' } });
  }

  #broadcast(): void {
    for (const client of this.#clients) {
      for (const id of client.subscriptions) {
        client.socket.send(
          JSON.stringify({
            id,
            type: 'event',
            event: {
              event_type: 'state_changed',
              data: { entity_id: this.#entity, new_state: this.#state(), old_state: null },
              origin: 'LOCAL',
              time_fired: new Date().toISOString(),
            },
          }),
        );
      }
    }
  }
}

function serviceCommand(domain: string, service: string): MowerCommand | undefined {
  if (domain === 'lawn_mower' && service === 'start_mowing') return 'start';
  if (domain === 'husqvarna_automower' && service === 'override_schedule') return 'start';
  if (domain === 'lawn_mower' && (service === 'dock' || service === 'pause')) return service;
  return undefined;
}

/** A mower on a real broker: commands on a topic, its state published retained on another. */
export async function mqttMowerOnBroker(options: {
  url: string;
  commandTopic: string;
  stateTopic: string;
  commandOf: (payload: string) => MowerCommand | undefined;
  stateOf: (activity: MowerActivity) => string;
  auth?: { username: string; password: string };
}): Promise<{ model: MowerModel; stop(): Promise<void> }> {
  const client = await mqtt.connectAsync(options.url, { reconnectPeriod: 0, ...(options.auth ?? {}) });
  const model = new MowerModel();
  const publish = () => void client.publish(options.stateTopic, options.stateOf(model.activity), { retain: true, qos: 1 });
  model.onChange(publish);
  client.on('message', (_topic, payload) => {
    const command = options.commandOf(payload.toString('utf8'));
    if (command) model.command(command);
  });
  await client.subscribeAsync(options.commandTopic, { qos: 1 });
  publish();
  return { model, stop: () => client.endAsync() };
}

const FORECAST_HOUR_MS = 3_600_000;

/** Two dry days ahead from `fromMs`, in the shape of Home Assistant's weather.get_forecasts (the MQTT forecast topic, docs/mqtt.md). */
export function dryForecastPayload(fromMs: number): string {
  const forecast = Array.from({ length: 48 }, (_, hour) => ({
    datetime: new Date(fromMs + hour * FORECAST_HOUR_MS).toISOString(),
    temperature: 21,
    humidity: 50,
    wind_speed: 8,
    precipitation: 0,
    precipitation_probability: 0,
  }));
  return JSON.stringify({ forecast });
}

/** The forecast unit fed by an MQTT forecast topic, for daemons in tests whose decision must read the pipeline's own states. */
export function mqttForecastUnit(options: { database: Database; now: () => number; stationId: string; topic: string }): ForecastUnit {
  const settings = loadConfig({ env: {}, units: stationUnitConfigs() }) as ReturnType<typeof loadConfig> & { forecast: ForecastSettings };
  return new ForecastUnit({
    stations: [{ id: options.stationId, config: { source: 'mqtt', topic: options.topic } }],
    settings: settings.forecast,
    store: new ForecastStore(options.database),
    logger: silentLogger,
    now: options.now,
    contextFor: (_stationId, nowMs) => calculationContext(settings, nowMs),
    userAgent: 'test',
  });
}

/**
 * Makes the station mowable the way a weather station and Home Assistant would: a dry forecast on
 * its forecast topic and a dry reading, then waits for the pipeline's state that says mowable with a
 * long dry window (the daemon needs `station.mowableOnDelayMinutes: 0` for it to come at once).
 */
export async function makeStationMowable(
  daemon: RunningDaemon,
  stationId: string,
  forecastTopic: string,
  fromMs: number,
  broker: { port: number; connect?: { username: string; password: string } } = { port: daemon.port },
): Promise<void> {
  const published = await publishOnce(broker.port, forecastTopic, dryForecastPayload(fromMs), {
    qos: 1,
    retain: true,
    connect: broker.connect,
  });
  expect(published).toBe('handled');
  await waitUntil(() => daemon.service.stationState(stationId)?.forecast?.fetched_at != null, 'the forecast in the state');
  const dry = reading({ temperature: 22, humidity: 50, wind_speed: 6, precipitation_rate: 0 });
  // 'duplicate': a restarted daemon kept this very reading in its history.
  expect(['accepted', 'duplicate']).toContain(daemon.service.acceptReading(stationId, dry, 'test'));
  await waitUntil(() => {
    const state = daemon.service.stationState(stationId);
    return state?.mowable === true && (state.forecast?.mowable_for_minutes ?? 0) >= 60;
  }, 'a mowable state with a long dry window');
}

/**
 * The mower control unit of one station `garden` as the daemon tests build it: a `mower.control`
 * block (validated as the config is), the test's clock and database (`store`: its runs' store on it), the base topic `mowability`,
 * UTC, no quiet hours, cuts accepted; `overrides` for what a test changes (an adapter, quiet hours).
 */
export function gardenMowerControl(
  control: Record<string, unknown>,
  { store, ...options }: Pick<MowerControlOptions, 'clock'> & Partial<Omit<MowerControlOptions, 'store'>> & { store: Database },
): MowerControlUnit {
  return new MowerControlUnit({
    lawns: [{ id: 'garden', control: controlConfigOf(control, 'garden') }],
    settings: { tickSeconds: 600, homeAssistantToken: '' },
    log: silentLogger,
    baseTopic: 'mowability',
    timeZone: 'UTC',
    recordCut: () => true,
    quietHours: undefined,
    store: new MowerRunStore(store),
    ...options,
  });
}
