/** Readers for /proc/<pid>/status, /proc/<pid>/io and the children lists of /proc/<pid>/task; Linux only, as the benchmarks are. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface ProcIo {
  rchar: number;
  /** Bytes handed to write()-family calls: files, pipes (logs) and sockets alike. */
  wchar: number;
  syscr: number;
  syscw: number;
  readBytes: number;
  /** Bytes this process caused to be sent to the storage layer (page-cache dirtying). */
  writeBytes: number;
  cancelledWriteBytes: number;
}

function parseKeyValues(text: string, separator: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf(separator);
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + separator.length).trim());
  }
  return values;
}

export function readIo(pid: number): ProcIo {
  const values = parseKeyValues(readFileSync(`/proc/${pid}/io`, 'utf8'), ':');
  const number = (key: string): number => Number(values.get(key) ?? Number.NaN);
  return {
    rchar: number('rchar'),
    wchar: number('wchar'),
    syscr: number('syscr'),
    syscw: number('syscw'),
    readBytes: number('read_bytes'),
    writeBytes: number('write_bytes'),
    cancelledWriteBytes: number('cancelled_write_bytes'),
  };
}

export function ioDelta(after: ProcIo, before: ProcIo): ProcIo {
  return {
    rchar: after.rchar - before.rchar,
    wchar: after.wchar - before.wchar,
    syscr: after.syscr - before.syscr,
    syscw: after.syscw - before.syscw,
    readBytes: after.readBytes - before.readBytes,
    writeBytes: after.writeBytes - before.writeBytes,
    cancelledWriteBytes: after.cancelledWriteBytes - before.cancelledWriteBytes,
  };
}

export interface ProcMemory {
  rssBytes: number;
  /** Peak RSS the kernel recorded for the process (VmHWM). */
  peakRssBytes: number;
}

export function readMemory(pid: number): ProcMemory {
  const values = parseKeyValues(readFileSync(`/proc/${pid}/status`, 'utf8'), ':');
  const kib = (key: string): number => Number((values.get(key) ?? 'NaN kB').split(/\s+/)[0]) * 1024;
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}

export function isAlive(pid: number): boolean {
  return existsSync(`/proc/${pid}/status`) && !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

/** Direct children of `pid` (all threads), e.g. the traced process under strace. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) children.push(...text.split(/\s+/).map(Number));
    } catch {
      // the thread went away between readdir and read
    }
  }
  return children;
}

export const MIB = 2 ** 20;
export const KIB = 2 ** 10;

/** Samples RSS of `pid` every `intervalMs` until stopped; keeps the peak and all samples. */
export class RssSampler {
  readonly samples: { atMs: number; rssBytes: number }[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #pid: number;

  constructor(pid: number) {
    this.#pid = pid;
  }

  start(intervalMs = 100): void {
    const sample = (): void => {
      try {
        this.samples.push({ atMs: Date.now(), rssBytes: readMemory(this.#pid).rssBytes });
      } catch {
        // process exited
      }
    };
    sample();
    this.#timer = setInterval(sample, intervalMs);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  get peakBytes(): number {
    return this.samples.reduce((peak, s) => Math.max(peak, s.rssBytes), 0);
  }
}

/** Linux USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on every mainstream architecture). */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system, all threads) `pid` has used so far, in microseconds; 10 ms resolution. */
export function readCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3; utime is field 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time of every thread of `pid` in nanoseconds (the first field of /proc/<pid>/task/<tid>/schedstat: time
 * on a CPU). Unlike /proc/<pid>/stat's clock ticks (10 ms) it resolves an idle second's fraction of a
 * millisecond; a thread that exited within the window is not counted.
 */
export function readThreadCpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

/** CPU time of `pid`'s main thread (the thread whose id is the process id) in nanoseconds, from its schedstat; 0 when it cannot be read. */
export function readMainThreadCpuNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}
