import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConnectionCounters } from '../../src/http/connectionCounters.js';
import { UploadCounters } from '../../src/http/uploadsCounters.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { StationReadingCounter } from '../../src/metrics/stationReadings.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';

async function scrape(metrics: ReturnType<typeof createMetrics>) {
  return parsePrometheusText((await metrics.render()).body);
}

describe('daemon metrics: uploads, accepted readings per station, database bytes', () => {
  it('labels uploads by protocol, station and outcome, and follows the counters', async () => {
    const counters = new UploadCounters();
    const metrics = createMetrics({ uploads: () => counters.entries() });
    counters.add('ecowitt', 'garden', 'accepted');
    counters.add('ecowitt', 'garden', 'accepted');
    counters.add('wunderground', undefined, 'wrong_password');
    let families = await scrape(metrics);
    expect(families.get('mowability_uploads_total')?.type).toBe('counter');
    expect(sampleValue(families, 'mowability_uploads_total', { protocol: 'ecowitt', station: 'garden', outcome: 'accepted' })).toBe(2);
    expect(
      sampleValue(families, 'mowability_uploads_total', { protocol: 'wunderground', station: '(unmatched)', outcome: 'wrong_password' }),
    ).toBe(1);
    counters.add('ecowitt', 'garden', 'accepted');
    families = await scrape(metrics);
    expect(sampleValue(families, 'mowability_uploads_total', { protocol: 'ecowitt', station: 'garden', outcome: 'accepted' })).toBe(3);
  });

  it('shows what the HTTP connection pool and pipelining bound closed, paused and dropped', async () => {
    const counters = createConnectionCounters();
    const metrics = createMetrics({ httpConnections: () => counters });
    Object.assign(counters, { refused: { share: 1, cap: 2 }, evicted: { share: 3, cap: 4 }, paused: 5, dropped: 6 });
    const families = await scrape(metrics);
    const closed = (action: string, reason: string) =>
      sampleValue(families, 'mowability_http_connections_closed_total', { action, reason });
    expect([
      closed('refused', 'share'),
      closed('refused', 'cap'),
      closed('evicted', 'share'),
      closed('evicted', 'cap'),
      closed('dropped', 'pipelining'),
    ]).toEqual([1, 2, 3, 4, 6]);
    expect(sampleValue(families, 'mowability_http_connections_paused_total', {})).toBe(5);
  });

  it('counts accepted readings per station from the station unit hook', async () => {
    const readings = new StationReadingCounter();
    const metrics = createMetrics({ stationReadings: () => readings.counts() });
    readings.onReading('garden');
    readings.onReading('garden');
    readings.onReading('pws');
    const families = await scrape(metrics);
    expect(sampleValue(families, 'mowability_station_readings_accepted_total', { station: 'garden' })).toBe(2);
    expect(sampleValue(families, 'mowability_station_readings_accepted_total', { station: 'pws' })).toBe(1);
  });

  it("labels what became of each station's messages by station and outcome", async () => {
    const counts = new Map([
      ['garden', { received: 5, accepted: 3, rejected: 1, ignored: 0, duplicates: 1, droppedValues: 2 }],
      ['roof', { received: 1, accepted: 0, rejected: 1, ignored: 0, duplicates: 0, droppedValues: 0 }],
    ]);
    const families = await scrape(createMetrics({ stationMessages: () => counts }));
    expect(families.get('mowability_station_messages_total')?.type).toBe('counter');
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'duplicates' })).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'roof', outcome: 'rejected' })).toBe(1);
  });

  it('adds the database file, its write-ahead log and index; a missing file counts 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mowability-metrics-'));
    try {
      const path = join(dir, 'db.sqlite');
      const metrics = createMetrics({ databasePath: path });
      expect(sampleValue(await scrape(metrics), 'mowability_database_bytes')).toBe(0);
      writeFileSync(path, Buffer.alloc(4096));
      writeFileSync(`${path}-wal`, Buffer.alloc(1000));
      expect(sampleValue(await scrape(metrics), 'mowability_database_bytes')).toBe(5096);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('registers none of them without their sources', async () => {
    const families = await scrape(createMetrics());
    for (const name of ['mowability_uploads_total', 'mowability_station_readings_accepted_total', 'mowability_database_bytes'])
      expect(families.has(name)).toBe(false);
  });
});
