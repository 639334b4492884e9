import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { topicMatches } from '../../src/mqtt/topics.js';
import { QUIET_MS, TopicsHeardNearby } from '../../src/station/topicsHeard.js';
import type { UnitContext } from '../../src/station/unit.js';

const GARDEN = { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events' } as StationConfig;
const SHED = { id: 'shed', name: 'Shed', format: 'json', topic: '+/shed' } as StationConfig;

async function started(lastReadingAtMs: number | null = null) {
  let now = 0;
  const unit = new TopicsHeardNearby({ stations: [GARDEN, SHED], matches: topicMatches, now: () => now });
  await unit.start({ history: { lastReadingAtMs: () => lastReadingAtMs } } as unknown as UnitContext);
  return { unit, at: (ms: number) => (now = ms) };
}

describe('TopicsHeardNearby', () => {
  it("keeps the last five distinct topics (a repeat moves to the end) under the station filter's first level that the filter does not match", async () => {
    const { unit } = await started();
    for (const topic of [
      'rtl_433/pi/events',
      'other/a',
      'rtl_433/A/1',
      'rtl_433/B/2',
      'rtl_433/A/1',
      'rtl_433/C/3',
      'rtl_433/D/4',
      'rtl_433/E/5',
      'rtl_433/F/6',
    ])
      unit.heard(topic);
    expect(unit.stateFragment('garden', QUIET_MS)).toEqual({
      topics_heard: { subscribed: 'rtl_433/+/events', seen: ['rtl_433/A/1', 'rtl_433/C/3', 'rtl_433/D/4', 'rtl_433/E/5', 'rtl_433/F/6'] },
    });
    // A filter that starts with a wildcard has no "nearby": nothing is kept for it.
    expect(unit.stateFragment('shed', QUIET_MS)).toBeUndefined();
  });

  it('says nothing before the station has been silent for QUIET_MS, and forgets what it saw at a reading', async () => {
    const { unit } = await started(1000);
    unit.heard('rtl_433/A/1');
    expect(unit.stateFragment('garden', 1000 + QUIET_MS - 1)).toBeUndefined();
    expect(unit.stateFragment('garden', 1000 + QUIET_MS)).toMatchObject({ topics_heard: { seen: ['rtl_433/A/1'] } });
    unit.onReading('garden');
    expect(unit.stateFragment('garden', 1000 + QUIET_MS)).toBeUndefined();
  });

  it('counts the silence from its start when the station never had a reading', async () => {
    let now = 50_000;
    const unit = new TopicsHeardNearby({ stations: [GARDEN], matches: topicMatches, now: () => now });
    await unit.start({ history: { lastReadingAtMs: () => null } } as unknown as UnitContext);
    unit.heard('rtl_433/A/1');
    expect(unit.stateFragment('garden', now + QUIET_MS - 1)).toBeUndefined();
    now += QUIET_MS;
    expect(unit.stateFragment('garden', now)).toBeDefined();
  });
});
