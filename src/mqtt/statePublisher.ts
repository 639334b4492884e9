/**
 * Publishes every state the station pipeline computes as the retained
 * `<base>/<station>/state`, followed by the station's availability.
 */
import type { StationPipeline } from '../station/pipeline.js';
import type { AvailabilityPublisher } from './availability.js';
import type { PublisherRef } from './publisher.js';

export function publishStates(pipeline: Pick<StationPipeline, 'onState'>, connection: PublisherRef, availability: AvailabilityPublisher): void {
  pipeline.onState((station, state, nowMs) => {
    connection()?.publish(`${station.id}/state`, JSON.stringify(state), { retain: true, qos: 1 });
    availability.publish(station, nowMs, false);
  });
}
