/**
 * The database file on disk, before and after SQLite opens it: private
 * permissions whatever the umask, refusing to create an empty database where
 * an existing one was meant, error messages that name the path and the
 * setting, and the file's identity (device + inode) to notice a deletion or
 * a replacement while it is open.
 */
import {
  closeSync,
  existsSync,
  fchmodSync,
  mkdirSync,
  openSync,
  chmodSync,
  lstatSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

/** Owner only: the database holds API key hashes and the history. */
export const DB_FILE_MODE = 0o600;
export const DB_DIRECTORY_MODE = 0o700;

/**
 * The environment variable and flag of the `db.path` setting. Defined here, below the config
 * layer, because every error about the path names them; src/config/serviceSchema.ts uses these.
 */
export const DB_PATH_SETTING = { env: 'MOWABILITY_DB_PATH', arg: 'db-path' } as const;
/** How a user points a command at the daemon's database ("MOWABILITY_DB_PATH or --db-path"); named in every error about the path. */
export const DB_PATH_FLAGS = `${DB_PATH_SETTING.env} or --${DB_PATH_SETTING.arg}`;
export const DB_PATH_HINT = `set ${DB_PATH_FLAGS} (db.path) to the daemon's database`;

export interface FileIdentity {
  dev: number;
  ino: number;
}

/** A database path SQLite keeps in memory or resolves itself: nothing on disk to prepare. */
export function isSpecialPath(path: string): boolean {
  return path === ':memory:' || path === '' || path.startsWith('file:');
}

/** An error the user can act on: the message names the path and the setting. */
export class DatabaseFileError extends Error {
  override name = 'DatabaseFileError';
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.path = path;
  }
}

/**
 * Creates the missing directories 0700 and the file 0600 before SQLite opens
 * it. SQLite gives -wal and -shm the mode of the database file, so they are
 * 0600 too. Existing directories and files keep their modes.
 */
export function prepareDatabaseFile(path: string, create: boolean): void {
  if (isSpecialPath(path)) return;
  const absolute = resolve(path);
  if (!create) {
    if (!existsSync(absolute)) {
      throw new DatabaseFileError(
        path,
        `no database at ${absolute}; this command does not create one. Start the daemon once (mowability serve) or ${DB_PATH_HINT}.`,
      );
    }
    return;
  }
  try {
    const directory = dirname(absolute);
    const firstCreated = mkdirSync(directory, { recursive: true, mode: DB_DIRECTORY_MODE });
    // mkdir applies the umask; chmod does not.
    if (firstCreated !== undefined) for (const created of createdChain(firstCreated, directory)) chmodSync(created, DB_DIRECTORY_MODE);
    if (!existsSync(absolute)) {
      const fd = openSync(absolute, 'wx', DB_FILE_MODE);
      try {
        fchmodSync(fd, DB_FILE_MODE);
      } finally {
        closeSync(fd);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return; // created by another process meanwhile
    throw explainOpenError(path, err);
  }
}

/** The directories from `first` down to `last`, as created by one recursive mkdir. */
function createdChain(first: string, last: string): string[] {
  const chain = [first];
  for (const part of relative(first, last).split(sep).filter(Boolean)) chain.push(resolve(chain.at(-1)!, part));
  return chain;
}

/** Wraps an fs or SQLite error in a message with the path, the cause and the setting. */
export function explainOpenError(path: string, err: unknown): Error {
  if (err instanceof DatabaseFileError) return err;
  const code = (err as { code?: string }).code ?? '';
  const detail = err instanceof Error ? err.message : String(err);
  const absolute = isSpecialPath(path) ? path : resolve(path);
  const why =
    code === 'EACCES' || code === 'EPERM' || /SQLITE_(CANTOPEN|READONLY|PERM)/.test(detail)
      ? 'cannot open it (check that the file and its directory exist and belong to the user running mowability)'
      : /SQLITE_NOTADB|SQLITE_CORRUPT/.test(detail)
        ? 'it is not a usable SQLite database'
        : 'opening it failed';
  return new DatabaseFileError(path, `database ${absolute}: ${why}: ${detail}. To use another file, ${DB_PATH_HINT}.`, { cause: err });
}

/**
 * One name per database file, whatever symlinks lead to it: the file's real path when it exists,
 * else (not created yet, or a symlink to a file not created yet) the real path of its directory
 * plus the name the symlinks end in, else the absolute path. Hard links still have two names.
 */
export function canonicalDatabasePath(path: string, depth = 0): string {
  if (isSpecialPath(path)) return path;
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    // Missing file: fall through to its directory.
  }
  try {
    if (depth < MAX_SYMLINK_DEPTH && lstatSync(absolute).isSymbolicLink()) {
      return canonicalDatabasePath(resolve(dirname(absolute), readlinkSync(absolute)), depth + 1);
    }
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

/** Linux's own limit on symlinks followed in one lookup (path_resolution(7): 40). */
const MAX_SYMLINK_DEPTH = 40;

export function fileIdentity(path: string): FileIdentity | undefined {
  if (isSpecialPath(path)) return undefined;
  const stat = statSync(path);
  return { dev: stat.dev, ino: stat.ino };
}

/** Why the file at `path` is no longer the one opened (deleted, replaced), or null. */
export function identityProblem(path: string, opened: FileIdentity): string | null {
  let now: FileIdentity;
  try {
    now = fileIdentity(path)!;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `database file ${resolve(path)} was deleted while the daemon runs; writes go to a file nobody can open. Restore it and restart the daemon.`
      : `database file ${resolve(path)} cannot be checked (${code ?? String(err)})`;
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino) {
    return `database file ${resolve(path)} was replaced while the daemon runs; the daemon still uses the old one. Restart the daemon.`;
  }
  return null;
}
