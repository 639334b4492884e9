/**
 * Refused station uploads where the user looks, not only in the (throttled)
 * log: a StationUnit that keeps, per station, how many uploads were refused
 * for which reason and the last one. While no reading was accepted since the
 * last refusal, the station's state carries `last_upload_refused` (the status
 * page shows it as "Last upload refused: <reason>"); the counts and the last
 * reason per station, and per unmatched console, go to the database at the
 * history's flush interval for `mowability status`.
 */
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import { loadUploadRefusals, saveUploadRefusals, type UploadRefusalRow } from '../store/uploadRefusalStore.js';
import { guarded, logFailure } from '../util/guarded.js';
import type { StationUnit, UnitContext } from './unit.js';

/** What the upload routes report (src/http/uploads.ts); `station` undefined: it matched none. */
export interface RefusedUpload {
  station: string | undefined;
  protocol: string;
  outcome: string;
  reason: string;
  atMs: number;
  source?: string;
}

/** The state's `last_upload_refused`. */
export interface LastUploadRefused {
  at: string;
  protocol: string;
  /** Why, as a code (UploadOutcome in src/http/uploadsCounters.ts), for a sentence in the reader's language. */
  outcome: string;
  /** Why, in English words (for `unparsable` with the field or date that could not be read). */
  reason: string;
  /** Uploads refused since the station's last accepted reading. */
  count: number;
}

/** The station label of uploads that matched no configured station (as in the upload counters). */
export const UNMATCHED = '(unmatched)';

export interface UploadRefusalsOptions {
  /** The daemon's database (open once the unit starts). */
  database: () => Database;
  logger: Logger;
  now: () => number;
  saveIntervalMs: number;
}

export class UploadRefusals implements StationUnit {
  readonly name = 'upload-refusals';
  readonly #options: UploadRefusalsOptions;
  readonly #rows = new Map<string, UploadRefusalRow>();
  readonly #dirty = new Set<string>();
  readonly #last = new Map<string, RefusedUpload & { since: number }>();
  readonly #acceptedAt = new Map<string, number>();
  #context: UnitContext | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: UploadRefusalsOptions) {
    this.#options = options;
  }

  async start(context: UnitContext): Promise<void> {
    this.#context = context;
    for (const row of await loadUploadRefusals(this.#options.database())) if (!this.#rows.has(key(row))) this.#rows.set(key(row), row);
    this.#timer = setInterval(
      guarded(() => this.save(), logFailure(this.#options.logger, 'upload refusals save')),
      this.#options.saveIntervalMs,
    );
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.save();
  }

  /** One refused upload (any time, also before start: the counts are kept and saved later). */
  record(refusal: RefusedUpload): void {
    const station = refusal.station ?? UNMATCHED;
    const rowKey = `${station}\u0000${refusal.outcome}`;
    const row = this.#rows.get(rowKey);
    this.#rows.set(rowKey, {
      station,
      outcome: refusal.outcome,
      count: (row?.count ?? 0) + 1,
      lastAtMs: refusal.atMs,
      protocol: refusal.protocol,
      reason: refusal.reason,
      source: refusal.source ?? null,
    });
    this.#dirty.add(rowKey);
    if (refusal.station !== undefined) {
      const previous = this.#last.get(refusal.station);
      const accepted = this.#acceptedSince(refusal.station, previous);
      this.#last.set(refusal.station, { ...refusal, since: accepted ? 1 : (previous?.since ?? 0) + 1 });
    }
  }

  onReading(stationId: string): void {
    this.#acceptedAt.set(stationId, this.#options.now());
  }

  stateFragment(stationId: string): { last_upload_refused: LastUploadRefused } | undefined {
    const last = this.#last.get(stationId);
    if (!last || this.#acceptedSince(stationId, last)) return undefined;
    return {
      last_upload_refused: {
        at: new Date(last.atMs).toISOString(),
        protocol: last.protocol,
        outcome: last.outcome,
        reason: last.reason,
        count: last.since,
      },
    };
  }

  /** Writes the rows that changed since the last save. */
  async save(): Promise<void> {
    if (this.#dirty.size === 0) return;
    const keys = [...this.#dirty];
    this.#dirty.clear();
    const rows = keys.map((rowKey) => this.#rows.get(rowKey)).filter((row): row is UploadRefusalRow => row !== undefined);
    try {
      await saveUploadRefusals(this.#options.database(), rows);
    } catch (err) {
      for (const rowKey of keys) this.#dirty.add(rowKey);
      throw err;
    }
  }

  /** Whether a reading was accepted after `refusal` (by arrival; after a restart, by the history's last reading). */
  #acceptedSince(stationId: string, refusal: RefusedUpload | undefined): boolean {
    if (!refusal) return true;
    const accepted = this.#acceptedAt.get(stationId) ?? this.#context?.history.lastReadingAtMs(stationId) ?? null;
    return accepted !== null && accepted >= refusal.atMs;
  }
}

function key(row: UploadRefusalRow): string {
  return `${row.station}\u0000${row.outcome}`;
}

/** The state key this unit owns (./statePayload.ts). */
declare module './statePayload.js' {
  interface StationStateFields {
    /** The last refused upload since the last accepted reading. */
    last_upload_refused: LastUploadRefused;
  }
}
