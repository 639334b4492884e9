/** Runs admin commands of the built CLI (dist/cli/main.js) against a database, as an operator would. */
import { execFile } from 'node:child_process';
import { cliPath } from './daemon.js';

export function runCli(repoRoot: string, args: readonly string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cliPath(repoRoot), ...args],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`mowability ${args.join(' ')} failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** `mowability keys add OWNER --json` → the clear key. */
export async function createKey(repoRoot: string, dbPath: string, owner: string): Promise<string> {
  const output = await runCli(repoRoot, ['keys', 'add', owner, '--json'], { MOWABILITY_DB_PATH: dbPath });
  const parsed = JSON.parse(output) as { key?: unknown };
  if (typeof parsed.key !== 'string') throw new Error(`keys add --json printed no key: ${output}`);
  return parsed.key;
}
