/**
 * What the add-on asks the Home Assistant Supervisor at start (developers.home-assistant.io, "App
 * communication" and the Supervisor API "Endpoints"): `GET /services/mqtt` (the broker that the
 * `mqtt:need` service hands out), `GET /core/api/config` (Home Assistant's core configuration through
 * the Supervisor's proxy, for `homeassistant_api: true`) and `GET /info`. Every request carries
 * `Authorization: Bearer <SUPERVISOR_TOKEN>`; Supervisor endpoints answer `{"result": "ok", "data": ...}`,
 * the core proxy answers Home Assistant's own JSON.
 *
 * The token and the broker's password are secrets: no error or log line made here contains them.
 */

export interface SupervisorMqttService {
  host: string;
  port: number;
  ssl: boolean;
  username: string;
  password: string;
  protocol: string;
}

export interface HomeAssistantCoreConfig {
  latitude: number;
  longitude: number;
  elevation: number | undefined;
  timeZone: string;
  /** Home Assistant's unit system (`temperature`, `length`, ...); it converts our metric values itself. */
  unitSystem: Record<string, string>;
  /** ISO 3166 country of the home, when set. */
  country: string | undefined;
}

export interface SupervisorInfo {
  homeassistant: string | undefined;
  arch: string | undefined;
  timezone: string | undefined;
}

export class SupervisorError extends Error {
  override name = 'SupervisorError';
}

/** How long one request may take, and how long the start waits for Home Assistant's core (it may still be starting). */
const REQUEST_TIMEOUT_MS = 10_000;
const RETRY_DELAY_MS = 2_000;
const ATTEMPTS = 15;

export class SupervisorClient {
  readonly #base: string;
  readonly #token: string;
  readonly #delay: (ms: number) => Promise<void>;

  constructor(base: string, token: string, options: { delay?: (ms: number) => Promise<void> } = {}) {
    this.#base = base.replace(/\/+$/, '');
    this.#token = token;
    this.#delay = options.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async mqttService(): Promise<SupervisorMqttService> {
    const data = record(unwrap(await this.#get('/services/mqtt', 'the MQTT service')), 'the MQTT service');
    const port = Number(data.port);
    if (typeof data.host !== 'string' || data.host === '' || !Number.isInteger(port) || port < 1 || port > 65535)
      throw new SupervisorError(
        'the Supervisor\'s MQTT service names no broker host and port: is the "Mosquitto broker" add-on installed and started?',
      );
    return {
      host: data.host,
      port,
      ssl: data.ssl === true,
      username: typeof data.username === 'string' ? data.username : '',
      password: typeof data.password === 'string' ? data.password : '',
      protocol: typeof data.protocol === 'string' ? data.protocol : '3.1.1',
    };
  }

  async coreConfig(): Promise<HomeAssistantCoreConfig> {
    const data = record(await this.#get('/core/api/config', "Home Assistant's core configuration"), "Home Assistant's core configuration");
    const { latitude, longitude, elevation, time_zone: timeZone, unit_system: unitSystem, country } = data;
    if (typeof latitude !== 'number' || typeof longitude !== 'number' || Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
      throw new SupervisorError("Home Assistant's core configuration has no home location: set it under Settings → System → General");
    if (typeof timeZone !== 'string' || timeZone === '')
      throw new SupervisorError("Home Assistant's core configuration has no time zone: set it under Settings → System → General");
    const units: Record<string, string> = {};
    if (typeof unitSystem === 'object' && unitSystem !== null)
      for (const [key, value] of Object.entries(unitSystem)) if (typeof value === 'string') units[key] = value;
    return {
      latitude,
      longitude,
      elevation: typeof elevation === 'number' && Number.isFinite(elevation) ? elevation : undefined,
      timeZone,
      unitSystem: units,
      country: typeof country === 'string' && /^[A-Z]{2}$/.test(country) ? country : undefined,
    };
  }

  async info(): Promise<SupervisorInfo> {
    const data = record(unwrap(await this.#get('/info', "the Supervisor's info")), "the Supervisor's info");
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return { homeassistant: text(data.homeassistant), arch: text(data.arch), timezone: text(data.timezone) };
  }

  /** GET with the token; network errors and 5xx (the core still starting: 502) are retried, 4xx are not. */
  async #get(path: string, what: string): Promise<unknown> {
    let last = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await this.#delay(RETRY_DELAY_MS);
      let response: Response;
      try {
        response = await fetch(`${this.#base}${path}`, {
          headers: { authorization: `Bearer ${this.#token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        last = `no answer from ${this.#base} (${(err as Error).message})`;
        continue;
      }
      if (response.status === 401 || response.status === 403)
        throw new SupervisorError(
          `the Supervisor refused the add-on's token for ${what} (HTTP ${response.status}): the add-on must declare homeassistant_api: true and "mqtt:need"; restart it`,
        );
      if (response.status >= 500) {
        last = `HTTP ${response.status}`;
        continue;
      }
      const text = await response.text();
      if (!response.ok)
        throw new SupervisorError(`the Supervisor answered ${what} with HTTP ${response.status}: ${supervisorMessage(text)}`);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new SupervisorError(`the Supervisor's answer for ${what} is not JSON`);
      }
    }
    throw new SupervisorError(`could not get ${what} from the Supervisor after ${ATTEMPTS} attempts: ${last}`);
  }
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SupervisorError(`the Supervisor's answer for ${what} is not an object`);
  return value as Record<string, unknown>;
}

/** The Supervisor's envelope `{"result": "ok", "data": {...}}`. */
function unwrap(body: unknown): unknown {
  const envelope = body as { result?: unknown; data?: unknown; message?: unknown } | null;
  if (envelope?.result === 'ok') return envelope.data;
  throw new SupervisorError(
    `the Supervisor answered with an error: ${typeof envelope?.message === 'string' ? envelope.message : 'no message'}`,
  );
}

/** The message of an error envelope, shortened; never the request's headers. */
function supervisorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 200);
}
