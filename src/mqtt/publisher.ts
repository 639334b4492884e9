/**
 * What the MQTT publishers need of the bridge connection, read when they
 * publish: the connection exists only while the bridge runs (undefined before
 * start and after stop, when publishing is a no-op).
 */
import type { PublishOptions } from './client.js';

export interface Publisher {
  readonly connected: boolean;
  /** `<base>/<relative>` */
  publish(relative: string, payload: string | Buffer, options?: PublishOptions): void;
  publishAbsolute(topic: string, payload: string | Buffer, options?: PublishOptions): void;
}

export type PublisherRef = () => Publisher | undefined;
