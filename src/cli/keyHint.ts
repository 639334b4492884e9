/**
 * The command that the daemon's first start suggests for creating an API key. It must reach the
 * daemon's own database whatever put it there (a --config file, MOWABILITY_DB_PATH, a flag, a
 * relative path resolved against the daemon's working directory), so it always names the
 * absolute path. Under systemd the service's database belongs to its dynamic user: there the
 * hint names the `mowability` wrapper (systemd/mowability), which runs the CLI as that user.
 */
import { isAbsolute, resolve } from 'node:path';
import { shellQuote } from '../util/shellQuote.js';

export interface KeyHintInput {
  /** The --config file or MOWABILITY_CONFIG, if any. */
  configFile?: string;
  /** db.path as configured (may be relative). */
  dbPath: string;
  /** The daemon's working directory, against which a relative db.path is opened. */
  cwd: string;
  /** systemd sets INVOCATION_ID for every unit it runs. */
  underSystemd: boolean;
}

/** The wrapper's name once installed (README: "Install on a Raspberry Pi"). */
export const SERVICE_WRAPPER_COMMAND = 'sudo mowability';

export function keyCommandHint(input: KeyHintInput): string {
  if (input.underSystemd) return `${SERVICE_WRAPPER_COMMAND} keys add <owner>`;
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(input.cwd, path));
  const dbPath = absolute(input.dbPath);
  return [
    'npx mowability keys add <owner>',
    ...(input.configFile ? [`--config ${shellQuote(absolute(input.configFile))}`] : []),
    shellQuote(`--db-path=${dbPath}`),
  ].join(' ');
}
