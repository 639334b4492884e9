/**
 * Why a file the daemon needs cannot be read, in words a self-hoster acts on. A file under a
 * directory the daemon's user may not enter looks missing to a plain existence check ("does not
 * exist"), although it is there: a permission problem is named as one, with the path that blocks
 * it, its mode and owner, and the user the daemon runs as (systemd's DynamicUser= picks a uid).
 */
import { constants, accessSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';

/** `user "mowability" (uid 61234)`, or just the uid where no name is known. */
export function currentUser(): string {
  const uid = process.getuid?.() ?? -1;
  try {
    return `user "${userInfo().username}" (uid ${uid})`;
  } catch {
    return `uid ${uid}`;
  }
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function describeMode(path: string): string {
  try {
    const stats = statSync(path);
    return `mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')}, owner uid ${stats.uid}`;
  } catch {
    return 'mode unknown';
  }
}

/** The ancestors of `path`, outermost first. */
function ancestors(path: string): string[] {
  const list: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    list.unshift(dir);
    if (dirname(dir) === dir) return list;
  }
}

/**
 * Undefined when `path` can be read (or, with `directory`, listed); otherwise one line: "does not
 * exist" only when it really does not, else which path denies the current user and how.
 */
export function unreadableProblem(what: string, path: string, options: { directory?: boolean } = {}): string | undefined {
  const absolute = resolve(path);
  const mode = options.directory ? constants.R_OK | constants.X_OK : constants.R_OK;
  if (canAccess(absolute, mode)) return undefined;
  const blocking = ancestors(absolute).find((dir) => !canAccess(dir, constants.X_OK));
  const advice =
    'the service runs as a dynamic user: keep config.json and its directories world-readable (0644 and 0755) and secrets in systemd credentials (README.md, "Secrets")';
  if (blocking !== undefined) {
    return `${what} "${path}" cannot be read by ${currentUser()}: permission denied on the directory "${blocking}" (${describeMode(blocking)}); ${advice}`;
  }
  if (!canAccess(absolute, constants.F_OK)) return `${what} "${path}" does not exist`;
  return `${what} "${path}" cannot be read by ${currentUser()}: permission denied (${describeMode(absolute)}); ${advice}`;
}
