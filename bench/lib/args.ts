/** Command-line options shared by bench/run.ts and bench/soak.ts. */

export interface BenchOptions {
  quick: boolean;
  /** Benchmarks to run; empty = all. */
  only: string[];
  minutes: number;
  resultsDir: string;
  /** Extra node flags for the daemon processes (e.g. --max-semi-space-size=2). */
  daemonNodeArgs: string[];
  /** Soak only: run the daemon's clocks this many times faster (libfaketime) for `hours` daemon hours. */
  speed: number | undefined;
  hours: number;
  /** Soak only: daemon hours at which to take heap snapshots in the accelerated mode. */
  snapshotHours: number[];
}

export function parseArgs(argv: readonly string[], defaults: { resultsDir: string }): BenchOptions {
  const options: BenchOptions = {
    quick: false,
    only: [],
    minutes: 10,
    resultsDir: defaults.resultsDir,
    daemonNodeArgs: [],
    speed: undefined,
    hours: 24,
    snapshotHours: [2, 22],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--quick') options.quick = true;
    else if (arg === '--minutes') options.minutes = Number(argv[++i]);
    else if (arg.startsWith('--minutes=')) options.minutes = Number(arg.slice('--minutes='.length));
    else if (arg === '--results') options.resultsDir = String(argv[++i]);
    else if (arg === '--speed') options.speed = Number(argv[++i]);
    else if (arg === '--hours') options.hours = Number(argv[++i]);
    else if (arg === '--snapshot-hours') options.snapshotHours = String(argv[++i]).split(',').filter(Boolean).map(Number);
    else if (arg.startsWith('--node-arg=')) options.daemonNodeArgs.push(arg.slice('--node-arg='.length));
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'usage: node dist-bench/bench/run.js [--quick] [--results DIR] [--node-arg=FLAG …] [benchmark …]; soak: [--minutes N] or [--speed N --hours H --snapshot-hours 2,22]\n',
      );
      process.exit(0);
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.only.push(...arg.split(',').filter(Boolean));
  }
  if (!Number.isFinite(options.minutes) || options.minutes <= 0) throw new Error('--minutes needs a positive number');
  if (options.speed !== undefined && !(options.speed >= 1)) throw new Error('--speed needs a number of at least 1');
  if (!Number.isFinite(options.hours) || options.hours <= 0) throw new Error('--hours needs a positive number');
  if (options.snapshotHours.some((h) => !Number.isFinite(h) || h < 0)) throw new Error('--snapshot-hours needs daemon hours, e.g. 2,22');
  return options;
}
