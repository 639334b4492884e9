/** Shared by the format parsers: configuration they need besides the station. */
export interface IngestContext {
  /** IANA zone for payload times without an offset (rtl_433 local time). */
  timeZone: string;
}

/** True when every key of `filter` equals (one of) the object's values, compared as strings. */
export function matchesFilter(object: Record<string, unknown>, filter: StationMatch | undefined): boolean {
  if (!filter) return true;
  for (const [key, expected] of Object.entries(filter)) {
    const actual = object[key];
    if (actual === undefined || actual === null) return false;
    const allowed = Array.isArray(expected) ? expected : [expected];
    // `actual` is a JSON scalar from the payload (objects never equal a configured string or number).
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (!allowed.some((value) => String(value) === String(actual))) return false;
  }
  return true;
}

export type StationMatch = Record<string, string | number | Array<string | number>>;
