/**
 * Versioned schema migrations, applied in order by Database.open(). A
 * migration, once released, is never edited: add a new one instead.
 */
import { serviceTables } from './001_serviceTables.js';
import { historyTables } from './002_historyTables.js';
import { historyFingerprints } from './003_historyFingerprints.js';
import { historyHighWater } from './004_historyHighWater.js';
import { historyTimeOrdered } from './005_historyTimeOrdered.js';
import { forecastCache } from './006_forecastCache.js';
import { lawnMemory } from './007_lawnMemory.js';
import { publicService } from './008_publicService.js';
import { historyStationRows } from './009_historyStationRows.js';
import { uploadRefusals } from './010_uploadRefusals.js';
import { chartSeries } from './011_chartSeries.js';
import { forecastCacheRowid } from './012_forecastCacheRowid.js';
import { announcedDiscovery } from './013_announcedDiscovery.js';
import { mowerRuns } from './014_mowerRuns.js';
import { stationControls } from './015_stationControls.js';
import { lawnPlans } from './016_lawnPlans.js';
import { changeLog } from './017_changeLog.js';

import type { Migration } from './migration.js';

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [
  serviceTables,
  historyTables,
  historyFingerprints,
  historyHighWater,
  historyTimeOrdered,
  forecastCache,
  lawnMemory,
  publicService,
  historyStationRows,
  uploadRefusals,
  chartSeries,
  forecastCacheRowid,
  announcedDiscovery,
  mowerRuns,
  stationControls,
  lawnPlans,
  changeLog,
];
