import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { AvailabilityPublisher } from '../../src/mqtt/availability.js';
import type { Publisher } from '../../src/mqtt/publisher.js';

const MINUTE = 60_000;

function recorder(): Publisher & { sent: Array<[string, string]> } {
  const sent: Array<[string, string]> = [];
  return { connected: true, sent, publish: (topic, payload) => sent.push([topic, String(payload)]), publishAbsolute: () => undefined };
}

describe('AvailabilityPublisher', () => {
  const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
  const slow: StationConfig = { ...garden, id: 'slow', freshness: { maxAgeMinutes: 120 } };

  it("is online while the last reading is within the freshness limit (the station's own, else the default)", () => {
    const last = new Map<string, number | null>([
      ['garden', 0],
      ['slow', 0],
    ]);
    const availability = new AvailabilityPublisher({
      connection: () => undefined,
      lastReadingAtMs: (id) => last.get(id) ?? null,
      freshnessMinutes: 30,
    });
    expect(availability.availability(garden, 30 * MINUTE)).toBe('online');
    expect(availability.availability(garden, 30 * MINUTE + 1)).toBe('offline');
    expect(availability.availability(slow, 120 * MINUTE)).toBe('online');
    last.set('garden', null);
    expect(availability.availability(garden, 0)).toBe('offline');
  });

  it('publishes retained on change only, unless forced; nothing without a connection', () => {
    const connection = recorder();
    let live: Publisher | undefined;
    const availability = new AvailabilityPublisher({ connection: () => live, lastReadingAtMs: () => 0, freshnessMinutes: 30 });
    availability.publish(garden, 0, false);
    expect(connection.sent).toEqual([]);
    live = connection;
    availability.publish(garden, 1, false);
    availability.publish(garden, 2, true);
    availability.publish(garden, 31 * MINUTE, false);
    availability.publish(garden, 32 * MINUTE, false);
    // The unpublished 'online' at 0 was remembered: only the forced repeat and the change go out.
    expect(connection.sent).toEqual([
      ['garden/availability', 'online'],
      ['garden/availability', 'offline'],
    ]);
  });
});
