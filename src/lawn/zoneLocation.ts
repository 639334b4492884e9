/**
 * A default location for the night ban, from the configured time zone. The tz database names a
 * reference point for each zone (its principal city, in zone1970.tab / zone.tab: Berlin for
 * Europe/Berlin, New York for America/New_York); moment-timezone ships that table as data
 * (data/meta/latest.json: each zone's `lat` and `long`). A station without a `location` gets the
 * sunset and sunrise of its time zone's reference point, so a fresh setup (the README's rtl_433
 * example has no location) still has a night ban; the sun times can be off by some tens of minutes
 * in a wide zone (docs/model.md, "Quiet hours"). Zones without a reference point (UTC, Etc/GMT-1)
 * give none.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { coordinatesText, type Location, type ZoneLocation } from '../core/lawn/quietHours.js';

interface ZoneTable {
  zones: Record<string, { name: string; lat: number; long: number }>;
}

let table: ZoneTable['zones'] | undefined;

/** The tz database's zone coordinates, read once on first use (nothing is read at import). */
function zoneTable(): ZoneTable['zones'] {
  if (table === undefined) {
    const path = createRequire(import.meta.url).resolve('moment-timezone/data/meta/latest.json');
    table = (JSON.parse(readFileSync(path, 'utf8')) as ZoneTable).zones;
  }
  return table;
}

/** The zone's reference point, or undefined when the tz database has none (UTC, Etc/*). A link ("US/Eastern") is looked up as the zone it names. */
export function zoneLocation(timeZone: string): ZoneLocation | undefined {
  const zones = zoneTable();
  let canonical: string | undefined;
  try {
    canonical = new Intl.DateTimeFormat('en-GB', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  for (const name of [timeZone, canonical]) {
    const zone = Object.hasOwn(zones, name) ? zones[name] : undefined;
    if (zone && Number.isFinite(zone.lat) && Number.isFinite(zone.long))
      return Object.freeze({ zone: name, latitude: zone.lat, longitude: zone.long });
  }
  return undefined;
}

/** Where a station's night ban takes its sun times from (the log at start, `mowability status`), in English. */
export function nightBanSource(
  options: { nightBan: boolean; zoneLocation: boolean; timeZone: string },
  location: Location | undefined,
): string {
  if (!options.nightBan) return 'off (lawnMemory.nightBan is false)';
  if (location) return `sunset and sunrise at the station's location (${coordinatesText(location, 'en')})`;
  if (!options.zoneLocation)
    return "none: the station has no location and lawnMemory.nightBanZoneLocation is false (set the station's location for a night ban)";
  const zone = zoneLocation(options.timeZone);
  if (!zone)
    return `none: the station has no location and the time zone ${options.timeZone} has no reference point in the tz database (set the station's location, or "timezone" to your zone)`;
  return `sunset and sunrise at the reference point of the time zone ${zone.zone} (${coordinatesText(zone, 'en')}), as the station has no location (set it for its own sun times)`;
}
