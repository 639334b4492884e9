/**
 * Is the system clock NTP-synchronised? systemd-timesyncd creates
 * /run/systemd/timesync/synchronized once it has set the clock
 * (systemd-timesyncd.service(8)); its directory without the file means "not
 * yet". Without the directory (chrony, ntpd, a container) we cannot tell.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';

export type ClockSyncStatus = 'synchronized' | 'unsynchronized' | 'unknown';

export function readClockSync(markerPath: string): ClockSyncStatus {
  if (markerPath === '') return 'unknown';
  if (existsSync(markerPath)) return 'synchronized';
  return existsSync(dirname(markerPath)) ? 'unsynchronized' : 'unknown';
}
