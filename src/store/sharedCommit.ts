/**
 * One SQLite commit for every batched writer on a connection. The station
 * histories and the embedded broker's retained messages used to commit on
 * timers of their own; each commit costs the SD card the WAL frames of the
 * pages it touches plus the wal-index and an fsync, so two writers cost
 * nearly twice one. Now the history's writer drives the commits (its
 * interval, its final flush on SIGTERM) and the other writers stage rows
 * here, written in the same transaction. Without a driver (the CLI, a
 * daemon without stations' history running yet or any more) a staging
 * writer commits alone, as before. It pays: the forecast saves joining the history's commits (with
 * their rows deflated) cut a forecast window's writes 480 → 116 KiB (bench/NOTES.md, "What was cut").
 * The connection owns its one SharedCommit (`Database.sharedCommit`): no registry to look it up in.
 */

/** Runs `work` in one transaction on the connection (`Db`: the connection's type, ./database.ts's Database). */
export type RunTransaction<Db> = (work: (db: Db) => Promise<void>) => Promise<void>;

/** Rows taken from a writer for one commit. */
export interface StagedRows<Db> {
  write(db: Db): Promise<void>;
  /** The commit failed: give the rows back (unless newer ones replaced them meanwhile). */
  restore(): void;
}

/**
 * Writes a commit's work somewhere cheaper than a transaction (the change log, ./changeLog.ts):
 * resolves true once it is durable there, false when it must go into a transaction as before (no
 * log, the log full, a write that reads inside the commit).
 */
export type RecordCommit<Db> = (work: (db: Db) => Promise<void>) => Promise<boolean>;

export interface CommitPart<Db> {
  /** Takes the staged rows, or undefined when nothing is staged. */
  take(): StagedRows<Db> | undefined;
}

export class SharedCommit<Db> {
  readonly #transaction: RunTransaction<Db>;
  readonly #record: RecordCommit<Db> | undefined;
  readonly #parts = new Set<CommitPart<Db>>();
  #wake: (() => void) | undefined;

  /** Made by the connection it commits on (Database's constructor), with its transaction. */
  constructor(transaction: RunTransaction<Db>, record?: RecordCommit<Db>) {
    this.#transaction = transaction;
    this.#record = record;
  }

  join(part: CommitPart<Db>): void {
    this.#parts.add(part);
  }

  /**
   * The caller commits from now on: `wake` asks it for a commit (on its
   * schedule). Returns the release, called after its final commit.
   */
  drive(wake: () => void): () => void {
    this.#wake = wake;
    return () => {
      if (this.#wake === wake) this.#wake = undefined;
    };
  }

  /** A part staged rows. True: the driver will commit them; false: no driver, the part commits itself. */
  staged(): boolean {
    if (!this.#wake) return false;
    this.#wake();
    return true;
  }

  /** Runs `work` (if any) and every part's staged rows in one transaction; false when there was nothing to write. */
  async commit(work?: (db: Db) => Promise<void>): Promise<boolean> {
    const taken = [...this.#parts].flatMap((part) => part.take() ?? []);
    if (!work && taken.length === 0) return false;
    const all = async (db: Db) => {
      if (work) await work(db);
      for (const rows of taken) await rows.write(db);
    };
    try {
      if (!(await this.#record?.(all))) await this.#transaction(all);
    } catch (err) {
      for (const rows of taken) rows.restore();
      throw err;
    }
    return true;
  }
}

/** One key's write into a commit's transaction. */
export type StagedWrite<Db> = (db: Db) => Promise<void>;

/**
 * Rows of one writer keyed by what they replace (a station's forecast, a station's balances): the
 * newest write per key wins and goes into the driver's next commit, or, without a driver (the CLI,
 * a daemon without histories), is written at once in a transaction of its own.
 */
export class KeyedStage<Db> {
  readonly #commit: SharedCommit<Db>;
  #staged = new Map<string, StagedWrite<Db>>();

  /** `commit`: the connection's (`database.sharedCommit`). */
  constructor(commit: SharedCommit<Db>) {
    this.#commit = commit;
    this.#commit.join({ take: () => this.#take() });
  }

  /** Resolves once the write is staged for the driver's commit, or committed. */
  stage(key: string, write: StagedWrite<Db>): Promise<void> {
    return this.stageAll([[key, write]]);
  }

  /** Several keys' writes at once: one commit for all of them when there is no driver. */
  async stageAll(writes: Iterable<readonly [string, StagedWrite<Db>]>): Promise<void> {
    for (const [key, write] of writes) this.#staged.set(key, write);
    if (this.#commit.staged()) return;
    await this.#commit.commit();
  }

  /** Commits what is staged, so a read sees it. */
  async settle(): Promise<void> {
    if (this.#staged.size > 0) await this.#commit.commit();
  }

  #take(): StagedRows<Db> | undefined {
    if (this.#staged.size === 0) return undefined;
    const taken = this.#staged;
    this.#staged = new Map();
    return {
      write: async (db) => {
        for (const write of taken.values()) await write(db);
      },
      restore: () => {
        for (const [key, write] of taken) if (!this.#staged.has(key)) this.#staged.set(key, write);
      },
    };
  }
}
