/**
 * A Home Assistant `lawn_mower` entity through HA's WebSocket API
 * (https://developers.home-assistant.io/docs/api/websocket): the server sends `auth_required`, the
 * client answers `{"type": "auth", "access_token": ...}`, the server `auth_ok` or `auth_invalid`; then
 * commands with an `id`: `subscribe_events` (`state_changed`) for the pushes, `get_states` for the
 * state at (re)connect, `call_service` for `lawn_mower.start_mowing` / `dock` / `pause` (or the
 * configured start service with its data, e.g. `husqvarna_automower.override_schedule`).
 *
 * The token is a secret: it goes into the auth message and nowhere else — never into a log line, an
 * error, the state or `problem()`. A lost connection is re-opened with back-off; a command while it is
 * down is refused (the controller retries through its confirmation, never a queued command).
 */
import type { Logger } from 'pino';
import WebSocket from 'ws';
import type { MowerActivity } from '../core/mower/decision.js';
import type { MowerAdapter, MowerCommand } from './adapter.js';
import type { HomeAssistantMowerConfig } from './controlConfig.js';

const ACTIVITIES: readonly MowerActivity[] = ['mowing', 'docked', 'paused', 'returning', 'error'];
const ANSWER_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 300_000;
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

interface Waiting {
  resolve(result: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** The WebSocket address of Home Assistant's API from its http(s) address. */
export function webSocketUrl(url: string): string {
  return `${url.replace(/^http/, 'ws')}/api/websocket`;
}

/** Where the WebSocket API is and which token opens it; the add-on's differs from a user's own address. */
export interface HomeAssistantEndpoint {
  webSocketUrl: string;
  token: string;
  /** Shown in problems and logs (never the token). */
  shownAs: string;
  /** What to do about a refused or missing token. */
  tokenFix: string;
}

/**
 * The endpoint for a mower block: its own url with the long-lived token, or, without a url inside
 * the Home Assistant add-on, the Supervisor's proxy `ws://supervisor/core/websocket` with the
 * Supervisor's token (developers.home-assistant.io, "App communication"). The Supervisor's token
 * never goes to an address the user names. Undefined: no url and not in the add-on.
 */
export function homeAssistantEndpoint(
  url: string,
  tokens: { homeAssistantToken: string; supervisorUrl?: string; supervisorToken?: string },
): HomeAssistantEndpoint | undefined {
  if (url !== '')
    return {
      webSocketUrl: webSocketUrl(url),
      token: tokens.homeAssistantToken,
      shownAs: url,
      tokenFix:
        'set mowerControl.homeAssistantToken (MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN or a systemd credential) to a long-lived access token',
    };
  if (!tokens.supervisorToken || !tokens.supervisorUrl) return undefined;
  const supervisor = tokens.supervisorUrl.replace(/\/+$/, '');
  return {
    webSocketUrl: `${supervisor.replace(/^http/, 'ws')}/core/websocket`,
    token: tokens.supervisorToken,
    shownAs: `the Supervisor's proxy ${supervisor}/core`,
    tokenFix: 'the add-on needs homeassistant_api: true in its config.yaml; restart the add-on for a new Supervisor token',
  };
}

export class HomeAssistantMower implements MowerAdapter {
  readonly kind = 'homeassistant';
  readonly #config: HomeAssistantMowerConfig;
  readonly #endpoint: HomeAssistantEndpoint | undefined;
  readonly #log: Logger;
  #socket: WebSocket | undefined;
  #authenticated = false;
  #closed = false;
  #nextId = 1;
  #backoffMs = 1000;
  #retry: NodeJS.Timeout | undefined;
  #problem: string | undefined = 'connecting to Home Assistant';
  #activity: MowerActivity = 'unknown';
  readonly #waiting = new Map<number, Waiting>();
  readonly #listeners: Array<(activity: MowerActivity) => void> = [];

  /** `token`: the long-lived token for `config.url`, or the endpoint homeAssistantEndpoint() chose. */
  constructor(config: HomeAssistantMowerConfig, token: string | HomeAssistantEndpoint | undefined, log: Logger) {
    this.#config = config;
    this.#endpoint = typeof token === 'string' ? homeAssistantEndpoint(config.url, { homeAssistantToken: token }) : token;
    this.#log = log;
  }

  /** Where it talks to, for messages (never the token). */
  get shownAs(): string {
    return this.#endpoint?.shownAs ?? 'Home Assistant (no address)';
  }

  async open(): Promise<void> {
    if (this.#endpoint === undefined) {
      this.#problem =
        'mower.control.homeassistant.url is not set and this is not the Home Assistant add-on (no SUPERVISOR_TOKEN): set url to Home Assistant\'s address, e.g. "http://homeassistant.local:8123"';
      return;
    }
    if (this.#endpoint.token === '') {
      this.#problem = `no Home Assistant token: ${this.#endpoint.tokenFix}`;
      return;
    }
    this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#failWaiting('closed');
    this.#socket?.close();
    this.#socket = undefined;
  }

  #connect(): void {
    if (this.#closed) return;
    const endpoint = this.#endpoint!;
    const socket = new WebSocket(endpoint.webSocketUrl, { maxPayload: MAX_MESSAGE_BYTES, handshakeTimeout: ANSWER_TIMEOUT_MS });
    this.#socket = socket;
    this.#authenticated = false;
    socket.on('message', (data: Buffer) => this.#onMessage(socket, data.toString('utf8')));
    socket.on('error', (err) => {
      // ws' errors name the address and the cause, never the auth message.
      this.#problem = `Home Assistant at ${endpoint.shownAs} unreachable (${err.message})`;
    });
    socket.on('close', () => {
      if (this.#socket !== socket) return;
      this.#authenticated = false;
      this.#failWaiting('the connection to Home Assistant closed');
      if (this.#closed) return;
      this.#retry = setTimeout(() => this.#connect(), this.#backoffMs);
      this.#retry.unref();
      this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
    });
  }

  #onMessage(socket: WebSocket, text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const endpoint = this.#endpoint!;
    if (message.type === 'auth_required') return void socket.send(JSON.stringify({ type: 'auth', access_token: endpoint.token }));
    if (message.type === 'auth_invalid') {
      this.#problem =
        endpoint.shownAs === this.#config.url
          ? 'Home Assistant refused the token (auth_invalid): create a new long-lived access token'
          : `Home Assistant refused the Supervisor's token (auth_invalid): ${endpoint.tokenFix}`;
      this.#log.warn({ url: endpoint.shownAs }, 'Home Assistant refused the access token');
      this.#closed = true;
      return void socket.close();
    }
    if (message.type === 'auth_ok') return void this.#onAuthenticated();
    if (message.type === 'result' && typeof message.id === 'number') return this.#onResult(message);
    if (message.type === 'event') this.#onEvent(message.event);
  }

  async #onAuthenticated(): Promise<void> {
    this.#authenticated = true;
    this.#backoffMs = 1000;
    this.#problem = undefined;
    // A connection only for service calls (the plan's notifications in the add-on): no entity to follow.
    if (this.#config.entity === '') return;
    try {
      await this.#command({ type: 'subscribe_events', event_type: 'state_changed' });
      const states: unknown = await this.#command({ type: 'get_states' });
      const list: ReadonlyArray<{ entity_id?: unknown; state?: unknown }> = Array.isArray(states)
        ? (states as Array<{ entity_id?: unknown; state?: unknown }>)
        : [];
      const own = list.find((state) => state.entity_id === this.#config.entity);
      if (own) this.#report(own.state);
      else this.#problem = `Home Assistant has no entity ${this.#config.entity}`;
    } catch (err) {
      this.#problem = `Home Assistant: ${(err as Error).message}`;
    }
  }

  #onResult(message: Record<string, unknown>): void {
    const waiting = this.#waiting.get(message.id as number);
    if (!waiting) return;
    this.#waiting.delete(message.id as number);
    clearTimeout(waiting.timer);
    if (message.success === true) return waiting.resolve(message.result);
    const error = (message.error ?? {}) as { code?: unknown; message?: unknown };
    const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
    waiting.reject(new Error(`${text(error.code, 'error')}: ${text(error.message, 'refused')}`));
  }

  #onEvent(event: unknown): void {
    const data = event as { event_type?: unknown; data?: { entity_id?: unknown; new_state?: { state?: unknown } | null } } | undefined;
    if (data?.event_type !== 'state_changed' || data.data?.entity_id !== this.#config.entity) return;
    this.#report(data.data.new_state?.state);
  }

  #report(state: unknown): void {
    const activity = typeof state === 'string' && (ACTIVITIES as readonly string[]).includes(state) ? (state as MowerActivity) : 'unknown';
    this.#activity = activity;
    for (const listener of this.#listeners) listener(activity);
  }

  #command(body: Record<string, unknown>): Promise<unknown> {
    const socket = this.#socket;
    if (!socket || !this.#authenticated || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new Error('not connected to Home Assistant'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error(`Home Assistant did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`));
      }, ANSWER_TIMEOUT_MS);
      this.#waiting.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify({ id, ...body }));
    });
  }

  #failWaiting(why: string): void {
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(why));
    }
    this.#waiting.clear();
  }

  async send(command: MowerCommand): Promise<void> {
    const [domain, service] = command === 'start' ? this.#config.startService.split('.') : ['lawn_mower', command];
    const data = command === 'start' ? this.#config.startData : {};
    await this.#command({ type: 'call_service', domain, service, service_data: data, target: { entity_id: this.#config.entity } });
  }

  /** Any Home Assistant service (e.g. the plan's `notify.<name>`), on this connection; rejects when it is down or refused. */
  async callService(domain: string, service: string, serviceData: Record<string, unknown>): Promise<void> {
    await this.#command({ type: 'call_service', domain, service, service_data: serviceData });
  }

  activity(): MowerActivity {
    return this.#activity;
  }

  onActivity(listener: (activity: MowerActivity) => void): void {
    this.#listeners.push(listener);
  }

  problem(): string | undefined {
    return this.#problem;
  }
}
