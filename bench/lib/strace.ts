/**
 * fsync counting with strace. The traced syscalls are written one per line to
 * a file, so a benchmark can count them over a window (lines before/after)
 * instead of only getting a total at exit as `strace -c` gives.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export const FSYNC_SYSCALLS = ['fsync', 'fdatasync'] as const;

let cachedAvailability: boolean | undefined;

export function straceAvailable(): boolean {
  if (cachedAvailability === undefined) {
    const probe = spawnSync('strace', ['-V'], { stdio: 'ignore' });
    cachedAvailability = probe.status === 0;
  }
  return cachedAvailability;
}

/** Arguments that put `command args…` under strace, tracing fsync/fdatasync of all threads and children. */
export function straceArgs(outputFile: string, command: string, args: readonly string[]): string[] {
  // --seccomp-bpf stops the tracee only for the traced calls, keeping the overhead on everything else near zero.
  return ['--seccomp-bpf', '-f', '-qq', '-e', `trace=${FSYNC_SYSCALLS.join(',')}`, '-o', outputFile, command, ...args];
}

/** Number of completed fsync/fdatasync calls recorded so far in an strace output file. */
export function countFsyncs(outputFile: string): number {
  if (!existsSync(outputFile)) return 0;
  let count = 0;
  for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
    // "<pid> fsync(12) = 0", or the "<... fsync resumed>" half of a call split by another thread
    if (/\b(fsync|fdatasync)\(/.test(line) && !line.includes('<unfinished ...>')) count++;
    else if (/<\.\.\. (fsync|fdatasync) resumed>/.test(line)) count++;
  }
  return count;
}
