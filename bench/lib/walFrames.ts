/**
 * What each commit wrote, decoded from a live database's WAL: the frames
 * appended since a byte offset (page numbers, commit markers) and, through
 * SQLite's dbstat table, the table or index owning each page. Format:
 * https://www.sqlite.org/fileformat2.html#walformat (32-byte header, then
 * frames of a 24-byte header and one page; a frame whose "database size
 * after commit" is non-zero ends a transaction; frames of an older WAL
 * generation carry other salts).
 */
import { existsSync, readFileSync } from 'node:fs';
import sqlite3 from 'sqlite3';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

export interface WalWindow {
  commits: number;
  frames: number;
  /** Frames per owner: table/index name, or "other" (pages dbstat does not list: the pointer map, the freelist). */
  byOwner: Record<string, number>;
  /** The WAL started over (checkpoint + reset) during the window: frames before that are not counted. */
  reset: boolean;
  /** Commits grouped by the tables they wrote (owners sorted, joined with "+"): how many, and their frames. */
  byCommitKind: Record<string, { commits: number; frames: number }>;
}

export function walOffset(walPath: string): number {
  return existsSync(walPath) ? readFileSync(walPath).length : 0;
}

function pageOwners(dbPath: string): Promise<Map<number, string>> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(dbPath, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      db.all('SELECT name, pageno FROM dbstat', (err: Error | null, rows: Array<{ name: string; pageno: number }>) => {
        db.close(() => (err ? reject(err) : resolve(new Map(rows.map((row) => [row.pageno, row.name])))));
      });
    });
  });
}

/** Frames appended to `${dbPath}-wal` since `fromOffset` (a walOffset() taken before). */
export async function walWindow(dbPath: string, fromOffset: number): Promise<WalWindow> {
  const wal = existsSync(`${dbPath}-wal`) ? readFileSync(`${dbPath}-wal`) : Buffer.alloc(0);
  const window: WalWindow = { commits: 0, frames: 0, byOwner: {}, reset: false, byCommitKind: {} };
  if (wal.length < WAL_HEADER) return window;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const frameSize = FRAME_HEADER + pageSize;
  const owners = await pageOwners(dbPath);
  let at = fromOffset >= WAL_HEADER ? WAL_HEADER + Math.ceil((fromOffset - WAL_HEADER) / frameSize) * frameSize : WAL_HEADER;
  // Frames of the current generation before the offset mean the WAL was reset and rewritten from the start.
  if (at > WAL_HEADER && (wal.length < at || wal.readUInt32BE(at - frameSize + 8) !== salts[0])) {
    window.reset = true;
    at = WAL_HEADER;
  }
  let commitOwners = new Set<string>();
  let commitFrames = 0;
  for (; at + frameSize <= wal.length; at += frameSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    const owner = owners.get(wal.readUInt32BE(at)) ?? 'other';
    window.byOwner[owner] = (window.byOwner[owner] ?? 0) + 1;
    window.frames++;
    commitOwners.add(owner);
    commitFrames++;
    if (wal.readUInt32BE(at + 4) === 0) continue;
    window.commits++;
    const kind = [...commitOwners].sort().join('+');
    const entry = (window.byCommitKind[kind] ??= { commits: 0, frames: 0 });
    entry.commits++;
    entry.frames += commitFrames;
    commitOwners = new Set();
    commitFrames = 0;
  }
  return window;
}

/** "history_minutes 1.3, history_stations 1.0, …" frames per commit, largest first. */
export function describeWindow(window: WalWindow): string {
  if (window.commits === 0) return 'no commits';
  return Object.entries(window.byOwner)
    .sort((a, b) => b[1] - a[1])
    .map(([owner, frames]) => `${owner} ${(frames / window.commits).toFixed(1)}`)
    .join(', ');
}

/** "3 × [history_minutes+history_stations] 7.0 frames; 1 × [lawn_balances] 2.0 frames", most commits first. */
export function describeCommitKinds(window: WalWindow): string {
  if (window.commits === 0) return 'no commits';
  return Object.entries(window.byCommitKind)
    .sort((a, b) => b[1].commits - a[1].commits)
    .map(([kind, { commits, frames }]) => `${commits} × [${kind}] ${(frames / commits).toFixed(1)} frames`)
    .join('; ');
}
