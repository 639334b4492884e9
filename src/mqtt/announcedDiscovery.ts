/**
 * The discovery configs this daemon has announced, remembered in the database (migration 013), so a
 * start can delete the configs of stations and entities no longer configured on either broker. The
 * retained sweep (./discoveryPublisher.ts) finds them only on a broker that kept them; the embedded
 * broker keeps none of our own configs across a restart, and Home Assistant keeps an entity until
 * an empty config arrives on its discovery topic (https://www.home-assistant.io/integrations/mqtt/#discovery-messages:
 * an empty retained payload on a config topic removes the entity).
 *
 * An empty payload cannot be retained (MQTT 3.1.1, 3.3.1.3), so Home Assistant must be subscribed
 * when it is sent. After our restart on the embedded broker it reconnects later and announces
 * itself online; the deletions are sent on every publish, and a remembered config is forgotten
 * only once its deletion went out after Home Assistant's birth message.
 */
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import type { DiscoveryMessage } from '../homeassistant/discovery.js';
import type { MqttConnection } from './client.js';

type Store = Pick<Database, 'all' | 'transaction'>;
type Connection = Pick<MqttConnection, 'publishAbsolute'>;

export class AnnouncedDiscovery {
  readonly #store: Store;
  readonly #log: Logger;
  /** topic → station (null for the bridge device), as in the table once loaded. */
  #rows: Map<string, string | null> | undefined;
  /** Reconciliations run one after another, so two never write the same rows at once. */
  #queue: Promise<void> = Promise.resolve();

  constructor(store: Store, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  /**
   * Sends an empty retained config on every remembered topic that `current` no longer has, and
   * remembers every current one. `homeAssistantOnline`: Home Assistant announced itself since our
   * start, so the deletions reached it and their topics are forgotten. Never rejects: a database
   * failure is logged, and the next publish tries again.
   */
  reconcile(current: readonly DiscoveryMessage[], connection: Connection, homeAssistantOnline: boolean): Promise<void> {
    this.#queue = this.#queue.then(() =>
      this.#reconcile(current, connection, homeAssistantOnline).catch((err: unknown) => {
        this.#log.warn(
          { err },
          'could not update the list of announced Home Assistant discovery configs; stale entities may stay in Home Assistant',
        );
      }),
    );
    return this.#queue;
  }

  async #reconcile(current: readonly DiscoveryMessage[], connection: Connection, homeAssistantOnline: boolean): Promise<void> {
    const rows = await this.#load();
    const currentTopics = new Map(current.map((message) => [message.topic, message.owner ?? null]));
    const removed = [...rows.keys()].filter((topic) => !currentTopics.has(topic));
    for (const topic of removed) connection.publishAbsolute(topic, '', { retain: true, qos: 1 });
    const added = [...currentTopics].filter(([topic, station]) => rows.get(topic) !== station);
    const forget = homeAssistantOnline ? removed : [];
    if (removed.length > 0) {
      const stations = [...new Set(removed.map((topic) => rows.get(topic)).filter((station) => station !== null))];
      this.#log.info({ removed: removed.length, stations }, 'deleted the discovery configs of stations or entities no longer configured');
    }
    if (added.length === 0 && forget.length === 0) return;
    await this.#store.transaction(async (db) => {
      for (const [topic, station] of added) {
        await db.run(
          'INSERT INTO ha_discovery_announced (topic, station) VALUES (?, ?) ON CONFLICT(topic) DO UPDATE SET station = excluded.station',
          [topic, station],
        );
      }
      for (const topic of forget) await db.run('DELETE FROM ha_discovery_announced WHERE topic = ?', [topic]);
    });
    for (const [topic, station] of added) rows.set(topic, station);
    for (const topic of forget) rows.delete(topic);
  }

  async #load(): Promise<Map<string, string | null>> {
    if (!this.#rows) {
      const rows = await this.#store.all<{ topic: string; station: string | null }>('SELECT topic, station FROM ha_discovery_announced');
      this.#rows = new Map(rows.map((row) => [row.topic, row.station]));
    }
    return this.#rows;
  }
}
