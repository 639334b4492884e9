/**
 * The plan's changes as a Home Assistant notification (`plan.notifyService`, e.g. notify.mobile_app_phone):
 * one `call_service` per changed lawn plan, with a title and a message listing each change's reason
 * in the configured language. The call is fired and never awaited by the planner: a refused, lost or
 * slow call neither blocks nor fails a re-plan; it is counted, its last error kept for the state's
 * `plan.notify`, and logged at most once an hour (Home Assistant down for a day is one line an hour).
 */
import type { Logger } from 'pino';
import type { LawnPlan } from '../core/plan/types.js';

const LOG_EVERY_MS = 3_600_000;

/** Home Assistant's service calls, as the mower control offers them (src/mower/mowerControlModule.ts). */
export interface NotifyConnection {
  readonly shownAs: string;
  callService(domain: string, service: string, serviceData: Record<string, unknown>): Promise<void>;
  /** Why the connection is down (a refused token, an unreachable address), if it is. */
  problem?(): string | undefined;
  open?(): Promise<void>;
  close?(): Promise<void>;
}

/** The state's `plan.notify`: what was sent and what failed. */
export interface PlanNotifyState {
  service: string;
  sent: number;
  failed: number;
  /** The last failure's cause (null: none yet, or the last answered call went through). */
  last_error: string | null;
  last_error_at: string | null;
}

const TITLE = { en: (name: string) => `Mowing plan changed: ${name}`, de: (name: string) => `Mähplan geändert: ${name}` };

/** The notification's title and message: one line per change, its reason. */
export function planNotification(plan: LawnPlan, lawnName: string, language: 'en' | 'de'): { title: string; message: string } {
  return { title: TITLE[language](lawnName), message: plan.changes.map((change) => `• ${change.reason[language]}`).join('\n') };
}

export class PlanNotifier {
  readonly #connection: NotifyConnection;
  readonly #service: string;
  readonly #language: 'en' | 'de';
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #onChange: (state: Readonly<PlanNotifyState>) => void;
  readonly #state: PlanNotifyState;
  #loggedAtMs = Number.NEGATIVE_INFINITY;

  /** `onChange`: the state's `plan.notify` changed (a call answered or failed: at most one per plan change). */
  constructor(options: {
    connection: NotifyConnection;
    service: string;
    language: 'en' | 'de';
    log: Logger;
    now: () => number;
    onChange: (state: Readonly<PlanNotifyState>) => void;
  }) {
    this.#connection = options.connection;
    this.#service = options.service;
    this.#language = options.language;
    this.#log = options.log;
    this.#now = options.now;
    this.#onChange = options.onChange;
    this.#state = { service: options.service, sent: 0, failed: 0, last_error: null, last_error_at: null };
  }

  async open(): Promise<void> {
    await this.#connection.open?.();
  }

  async close(): Promise<void> {
    await this.#connection.close?.();
  }

  state(): Readonly<PlanNotifyState> {
    return { ...this.#state };
  }

  /** One call for the lawn's changed plan; returns at once. */
  notify(plan: LawnPlan, lawnName: string): void {
    const [domain, service] = this.#service.split('.') as [string, string];
    // Only title and message: every notify platform takes them; `data` is each platform's own.
    this.#connection.callService(domain, service, planNotification(plan, lawnName, this.#language)).then(
      () => {
        this.#state.sent++;
        this.#state.last_error = null;
        this.#onChange(this.state());
      },
      (err: unknown) => this.#failed(err),
    );
  }

  #failed(err: unknown): void {
    const nowMs = this.#now();
    this.#state.failed++;
    const down = this.#connection.problem?.();
    this.#state.last_error = `${this.#service} via ${this.#connection.shownAs}: ${(err as Error).message}${down ? ` (${down})` : ''}`;
    this.#state.last_error_at = new Date(nowMs).toISOString();
    if (nowMs - this.#loggedAtMs >= LOG_EVERY_MS) {
      this.#loggedAtMs = nowMs;
      // The message names the service and the address, never the token (the connection keeps it to its auth message).
      this.#log.warn({ cause: this.#state.last_error, failed: this.#state.failed }, 'the plan notification failed (logged once an hour)');
    }
    this.#onChange(this.state());
  }
}
