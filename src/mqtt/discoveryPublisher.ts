/**
 * Home Assistant discovery on the bridge connection: publishes every config
 * (retained), deletes the configs of stations or entities we no longer have
 * (those announced before, remembered in the database by ./announcedDiscovery.ts,
 * and once per start the retained ones the broker still holds), and asks for a full republish when Home
 * Assistant announces itself online (its birth message) after a restart,
 * at most once per `homeassistant.birthResendSeconds`.
 */
import type { Logger } from 'pino';
import { guarded, logFailure } from '../util/guarded.js';
import type { MqttConnection } from './client.js';
import { isOurDiscoveryConfig, type DiscoveryMessage } from '../homeassistant/discovery.js';
import type { AnnouncedDiscovery } from './announcedDiscovery.js';

/** Home Assistant subscribes to discovery shortly after its birth message; give it that time. */
export const BIRTH_DELAY_MS = 1000;
/** How long we listen for retained discovery configs before deleting stale ones. */
export const DISCOVERY_SWEEP_MS = 3000;

type DiscoveryConnection = Pick<MqttConnection, 'publishAbsolute' | 'subscribe' | 'unsubscribe'>;

export interface DiscoveryPublisherOptions {
  /** `homeassistant.*` */
  settings: { readonly discovery: boolean; readonly prefix: string; readonly statusTopic: string; readonly birthResendSeconds: number };
  baseTopic: string;
  messages(): DiscoveryMessage[];
  log: Logger;
  /** The configs announced before (in the database): those no longer current are deleted on every publish. */
  announced?: AnnouncedDiscovery;
}

export class DiscoveryPublisher {
  readonly #options: DiscoveryPublisherOptions;
  #swept = false;
  #sweepTimer: NodeJS.Timeout | undefined;
  #birthTimer: NodeJS.Timeout | undefined;
  #windowTimer: NodeJS.Timeout | undefined;
  #birthPending = false;
  /** Home Assistant announced itself since our start: it was subscribed when we last published. */
  #homeAssistantSeen = false;
  /** `online` messages seen on the status topic, and the re-sends they caused. */
  birthsReceived = 0;
  birthResends = 0;

  constructor(options: DiscoveryPublisherOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.settings.discovery;
  }

  publish(connection: DiscoveryConnection): void {
    if (!this.enabled) return;
    const messages = this.#options.messages();
    for (const message of messages) {
      connection.publishAbsolute(message.topic, JSON.stringify(message.payload), { retain: true, qos: 1 });
    }
    void this.#options.announced?.reconcile(messages, connection, this.#homeAssistantSeen);
  }

  /**
   * Once per start: learn which of our discovery configs the broker still
   * retains and delete those of stations or entities we no longer have, so
   * Home Assistant does not keep ghost entities.
   */
  sweepStale(connection: DiscoveryConnection): void {
    if (!this.enabled || this.#swept) return;
    this.#swept = true;
    const { prefix } = this.#options.settings;
    const filter = `${prefix}/+/+/config`;
    const current = new Set(this.#options.messages().map((message) => message.topic));
    const stale = new Set<string>();
    connection.subscribe(filter, (topic, payload, retained) => {
      if (!retained || current.has(topic) || payload.length === 0) return;
      if (isOurDiscoveryConfig(payload.toString('utf8'), this.#options.baseTopic)) stale.add(topic);
    });
    this.#sweepTimer = setTimeout(
      guarded(
        () => {
          this.#sweepTimer = undefined;
          connection.unsubscribe(filter);
          for (const topic of stale) connection.publishAbsolute(topic, '', { retain: true, qos: 1 });
          if (stale.size > 0) this.#options.log.info({ removed: [...stale] }, 'removed discovery configs of stations no longer configured');
        },
        logFailure(this.#options.log, 'discovery sweep'),
      ),
      DISCOVERY_SWEEP_MS,
    );
    this.#sweepTimer.unref();
  }

  /**
   * Calls `republish` BIRTH_DELAY_MS after Home Assistant's `online`, then at most once per
   * `birthResendSeconds`: births within that window after a re-send become one re-send at its
   * end. A flood of `online` (50/s made us re-send every config to every subscriber each second)
   * thus costs one re-send per window, however many clients send it.
   */
  onBirth(connection: DiscoveryConnection, republish: () => void): void {
    if (!this.enabled) return;
    connection.subscribe(this.#options.settings.statusTopic, (_topic, payload) => {
      if (payload.toString('utf8').trim() !== 'online') return;
      this.birthsReceived++;
      if (this.#birthTimer) return;
      if (this.#windowTimer) {
        this.#birthPending = true;
        return;
      }
      this.#scheduleResend(BIRTH_DELAY_MS, republish);
    });
  }

  #scheduleResend(delayMs: number, republish: () => void): void {
    this.#birthTimer = setTimeout(
      guarded(
        () => {
          this.#birthTimer = undefined;
          this.#homeAssistantSeen = true;
          this.#openWindow(republish);
          this.birthResends++;
          republish();
        },
        logFailure(this.#options.log, 'republish after Home Assistant restart'),
      ),
      delayMs,
    );
    this.#birthTimer.unref();
  }

  /** After a re-send: births until the window closes are coalesced into one re-send then. */
  #openWindow(republish: () => void): void {
    this.#windowTimer = setTimeout(() => {
      this.#windowTimer = undefined;
      if (!this.#birthPending) return;
      this.#birthPending = false;
      this.#scheduleResend(0, republish);
    }, this.#options.settings.birthResendSeconds * 1000);
    this.#windowTimer.unref();
  }

  /** Cancels a pending sweep and republish (the connection is going away). */
  stop(): void {
    if (this.#birthTimer) clearTimeout(this.#birthTimer);
    this.#birthTimer = undefined;
    if (this.#windowTimer) clearTimeout(this.#windowTimer);
    this.#windowTimer = undefined;
    this.#birthPending = false;
    if (this.#sweepTimer) clearTimeout(this.#sweepTimer);
    this.#sweepTimer = undefined;
  }
}
