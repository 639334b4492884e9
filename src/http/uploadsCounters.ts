/**
 * What became of every upload, by protocol, station and outcome, for
 * /metrics (read at scrape time) and tests. Labels stay bounded: stations
 * are the configured ones, anything unmatched counts under UNMATCHED_STATION.
 */
/** By the credentials an upload carries: a PASSKEY (Ecowitt, Ambient when its stationtype says so) or an ID (Weather Underground). */
export type UploadProtocol = 'ecowitt' | 'ambient' | 'wunderground';

/** `accepted` and `duplicate` come from the history; every other outcome is a refusal. */
export type UploadOutcome =
  | 'accepted'
  | 'duplicate'
  | 'missing_credentials'
  | 'unknown_passkey'
  | 'unknown_station_id'
  | 'wrong_password'
  | 'unparsable'
  | 'rejected'
  | 'not_running';

export const UNMATCHED_STATION = '(unmatched)';

export interface UploadCount {
  protocol: UploadProtocol;
  station: string;
  outcome: UploadOutcome;
  count: number;
}

export class UploadCounters {
  readonly #counts = new Map<string, UploadCount>();

  add(protocol: UploadProtocol, station: string | undefined, outcome: UploadOutcome): void {
    const stationLabel = station ?? UNMATCHED_STATION;
    const key = `${protocol}\u0000${stationLabel}\u0000${outcome}`;
    const entry = this.#counts.get(key);
    if (entry) entry.count++;
    else this.#counts.set(key, { protocol, station: stationLabel, outcome, count: 1 });
  }

  entries(): readonly UploadCount[] {
    return [...this.#counts.values()].map((entry) => ({ ...entry }));
  }

  /** The count of one combination (0 when never seen). */
  get(protocol: UploadProtocol, station: string | undefined, outcome: UploadOutcome): number {
    return this.#counts.get(`${protocol}\u0000${station ?? UNMATCHED_STATION}\u0000${outcome}`)?.count ?? 0;
  }
}
