/**
 * The cut history of a station's further lawns (its `lawns` after the first; ./lawnsConfig.ts): the
 * last cut of each, kept in lawn_cuts under the lawn's id as the first lawn's is under the station's
 * (lawn ids are unique and never another station's, so the rows cannot collide). Growth stays the
 * station's: every lawn of a station has the same weather, so a lawn's degree-days since its own cut
 * come from the station memory's hourly checkpoints (src/core/lawn/memory.ts gddSince).
 */
export interface LawnCut {
  readonly stationId: string;
  readonly atMs: number;
  readonly source: string;
}

export class LawnCutBook {
  /** lawn id → its station, for every further lawn. */
  readonly #stationOf: ReadonlyMap<string, string>;
  readonly #cuts = new Map<string, LawnCut>();

  constructor(lawns: ReadonlyArray<{ stationId: string; lawnId: string }>) {
    this.#stationOf = new Map(lawns.map(({ stationId, lawnId }) => [lawnId, stationId]));
  }

  /** The further lawns: their ids with their stations. */
  lawns(): IterableIterator<[lawnId: string, stationId: string]> {
    return this.#stationOf.entries();
  }

  stationOf(lawnId: string): string | undefined {
    return this.#stationOf.get(lawnId);
  }

  lastCut(lawnId: string): LawnCut | undefined {
    return this.#cuts.get(lawnId);
  }

  /** Takes a cut when it is newer than the one known (or `force`: read back from the database); true when the last cut changed. */
  take(lawnId: string, atMs: number, source: string, force = false): boolean {
    const stationId = this.#stationOf.get(lawnId);
    if (stationId === undefined) return false;
    const known = this.#cuts.get(lawnId);
    if (known && (force ? known.atMs === atMs : atMs <= known.atMs)) return false;
    this.#cuts.set(lawnId, { stationId, atMs, source });
    return true;
  }
}
