/** The soil estimate feed: spin-up, a sensor's grace time, the field-capacity scale, the state's source. */
import { describe, expect, it } from 'vitest';
import { initialLawnMemory, type LawnMemoryState } from '../../src/core/lawn/memory.js';
import { soilProfile } from '../../src/core/lawn/soilBucket.js';
import { SENSOR_GRACE_MS, SPIN_UP_MS, SoilMoistureFeed, withSoilSource } from '../../src/lawn/soilFeed.js';

const NOW = Date.parse('2026-07-01T12:00:00Z');
const loam = { soilType: 'loam', mowerClass: 'robot', turfType: 'cool_season' } as const;
const memory = (soilPct: number, startedMs = NOW - SPIN_UP_MS): LawnMemoryState => ({
  ...initialLawnMemory(soilProfile('loam', 'cool_season')),
  soilPct,
  gddCheckpoints: [[startedMs, 0]],
});

function feedFor(lawn: typeof loam & { fieldCapacityPercent?: number } = loam): SoilMoistureFeed {
  const feed = new SoilMoistureFeed();
  feed.register('garden', lawn, soilProfile(lawn.soilType, lawn.turfType, lawn.fieldCapacityPercent));
  return feed;
}

describe('soil moisture feed', () => {
  it('adds the estimate once the memory has run for the spin-up time, rounded to 0.1 %', () => {
    const feed = feedFor();
    expect(feed.extend('garden', { temperature: 20 }, memory(30.04), NOW)).toEqual({ temperature: 20, soil_moisture: 30 });
    expect(feed.extend('garden', { temperature: 20 }, memory(30, NOW - SPIN_UP_MS + 1), NOW)).toEqual({ temperature: 20 });
    expect(feed.source('garden', memory(30, NOW - SPIN_UP_MS + 1), NOW)).toBeNull();
    expect(feed.extend('other', { temperature: 20 }, memory(30), NOW)).toEqual({ temperature: 20 });
  });

  it('a sensor wins: its value now, or a reading within the grace time', () => {
    const feed = feedFor();
    expect(feed.extend('garden', { soil_moisture: 18 }, memory(30), NOW)).toEqual({ soil_moisture: 18 });
    feed.onReading('garden', {
      timeMs: NOW - SENSOR_GRACE_MS,
      values: { soil_moisture: 18 },
      rainCounters: [],
      rainDeltaMm: 0,
      fingerprint: 'x',
      dropped: [],
    });
    expect(feed.extend('garden', {}, memory(30), NOW)).toEqual({});
    expect(feed.source('garden', memory(30), NOW)).toBe('sensor');
    // A day after the sensor's last reading the station is one without a sensor.
    expect(feed.extend('garden', {}, memory(30), NOW + 1)).toEqual({ soil_moisture: 30 });
    expect(feed.source('garden', memory(30), NOW + 1)).toBe('estimated');
  });

  it('keeps the relative wetness when a configured field capacity was clamped in the bucket', () => {
    // Loam saturation 46 %: a configured 50 % is 45 % in the bucket; θ 45 (at field capacity) is 50 for the core.
    expect(feedFor({ ...loam, fieldCapacityPercent: 50 }).extend('garden', {}, memory(45), NOW)).toEqual({ soil_moisture: 50 });
  });

  it('lists the estimate among the derived inputs of the state', () => {
    expect(withSoilSource({ derived_inputs: ['mow_need'] }, 'estimated')).toEqual({
      derived_inputs: ['mow_need', 'soil_moisture'],
      soil_moisture_source: 'estimated',
    });
    expect(withSoilSource({ derived_inputs: [] }, 'sensor')).toEqual({ derived_inputs: [], soil_moisture_source: 'sensor' });
  });
});
