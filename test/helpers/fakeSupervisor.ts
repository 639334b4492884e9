/**
 * A fake Home Assistant Supervisor on loopback, answering what the add-on asks as the Supervisor's
 * API documents it (developers.home-assistant.io, "Endpoints" and "App communication"): every request
 * needs `Authorization: Bearer <SUPERVISOR_TOKEN>` (401 otherwise); `GET /services/mqtt` and `GET /info`
 * in the `{"result": "ok", "data": ...}` envelope (400 with an error envelope when no MQTT service is
 * provided); `GET /core/api/config` with Home Assistant's own JSON; the WebSocket proxy
 * `/core/websocket` (a FakeHomeAssistant checking the same token); and the ingress proxy
 * `/api/hassio_ingress/<token>/<path>` → the add-on's `/<path>` with `X-Ingress-Path` and
 * X-Forwarded-For added, as Home Assistant's and the Supervisor's proxies forward a request.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeHomeAssistant } from './mowerSimulators.js';

export interface FakeMqttService {
  host: string;
  port: number;
  username: string;
  password: string;
}

export interface FakeSupervisorOptions {
  token: string;
  /** Undefined: no add-on provides MQTT. */
  mqtt: FakeMqttService | undefined;
  core: Record<string, unknown>;
}

/** Home Assistant's /api/config for a home in Berlin (the keys HA 2024.x answers with). */
export function berlinCoreConfig(): Record<string, unknown> {
  return {
    latitude: 52.52,
    longitude: 13.41,
    elevation: 34,
    unit_system: {
      length: 'km',
      accumulated_precipitation: 'mm',
      mass: 'g',
      pressure: 'Pa',
      temperature: '°C',
      volume: 'L',
      wind_speed: 'm/s',
    },
    location_name: 'Home',
    time_zone: 'Europe/Berlin',
    components: ['mqtt', 'hassio'],
    version: '2024.1.6',
    config_source: 'storage',
    state: 'RUNNING',
    country: 'DE',
    language: 'de',
    currency: 'EUR',
  };
}

export const INGRESS_TOKEN = 'fAkEiNgReSsToKeN123';

export class FakeSupervisor {
  readonly requests: Array<{ method: string; path: string; authorized: boolean }> = [];
  /** Where the ingress proxy forwards to (the add-on's ingress port). */
  ingressTarget: { host: string; port: number } | undefined;
  homeAssistant: FakeHomeAssistant | undefined;
  readonly #server: Server;
  readonly #options: FakeSupervisorOptions;

  private constructor(options: FakeSupervisorOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  static async start(options: FakeSupervisorOptions, host = '127.0.0.1'): Promise<FakeSupervisor> {
    const fake = new FakeSupervisor(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, host, resolve));
    fake.homeAssistant = await FakeHomeAssistant.start(options.token, 'lawn_mower.robbi', {
      server: fake.#server,
      path: '/core/websocket',
    });
    return fake;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The page's address through the ingress proxy, as Home Assistant's frontend opens it. */
  get ingressUrl(): string {
    return `${this.url}/api/hassio_ingress/${INGRESS_TOKEN}/`;
  }

  async stop(): Promise<void> {
    await this.homeAssistant?.stop();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://supervisor').pathname;
    const ingress = `/api/hassio_ingress/${INGRESS_TOKEN}`;
    // The ingress proxy authenticates the browser's session cookie, not the add-on's token.
    if (path === ingress || path.startsWith(`${ingress}/`)) return this.#proxy(request, response, ingress);
    const authorized = request.headers.authorization === `Bearer ${this.#options.token}`;
    this.requests.push({ method: request.method ?? '', path, authorized });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (!authorized) return send(401, { result: 'error', message: 'Unauthorized', data: {} });
    if (request.method !== 'GET') return send(405, { result: 'error', message: 'Method Not Allowed', data: {} });
    if (path === '/services/mqtt') {
      const mqtt = this.#options.mqtt;
      if (!mqtt) return send(400, { result: 'error', message: 'No mqtt service provider found', data: {} });
      return send(200, { result: 'ok', data: { addon: 'core_mosquitto', ...mqtt, ssl: false, protocol: '3.1.1' } });
    }
    if (path === '/info')
      return send(200, {
        result: 'ok',
        data: {
          supervisor: '2024.01.1',
          homeassistant: '2024.1.6',
          hassos: '11.4',
          arch: 'amd64',
          timezone: 'Europe/Berlin',
          state: 'running',
        },
      });
    if (path === '/core/api/config') return send(200, this.#options.core);
    send(404, { result: 'error', message: `no endpoint ${path}`, data: {} });
  }

  #proxy(request: IncomingMessage, response: ServerResponse, ingress: string): void {
    const target = this.ingressTarget;
    if (!target) return void response.writeHead(503).end();
    const rest = (request.url ?? '/').slice(ingress.length) || '/';
    const headers = {
      ...request.headers,
      'x-ingress-path': ingress,
      'x-forwarded-for': `${String(request.headers['x-forwarded-for'] ?? '')}, 127.0.0.1`,
    };
    const forwarded = httpRequest({ host: target.host, port: target.port, method: request.method, path: rest, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  }
}
