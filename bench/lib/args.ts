/** Command-line options shared by bench/run.ts and bench/soak.ts. */

export interface BenchOptions {
  quick: boolean;
  /** Benchmarks to run; empty = all. */
  only: string[];
  minutes: number;
  resultsDir: string;
  /** Extra node flags for the daemon processes (e.g. --max-semi-space-size=2). */
  daemonNodeArgs: string[];
}

export function parseArgs(argv: readonly string[], defaults: { resultsDir: string }): BenchOptions {
  const options: BenchOptions = { quick: false, only: [], minutes: 10, resultsDir: defaults.resultsDir, daemonNodeArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--quick') options.quick = true;
    else if (arg === '--minutes') options.minutes = Number(argv[++i]);
    else if (arg.startsWith('--minutes=')) options.minutes = Number(arg.slice('--minutes='.length));
    else if (arg === '--results') options.resultsDir = String(argv[++i]);
    else if (arg.startsWith('--node-arg=')) options.daemonNodeArgs.push(arg.slice('--node-arg='.length));
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: node dist-bench/bench/run.js [--quick] [--results DIR] [--node-arg=FLAG …] [benchmark …]\n');
      process.exit(0);
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.only.push(...arg.split(',').filter(Boolean));
  }
  if (!Number.isFinite(options.minutes) || options.minutes <= 0) throw new Error('--minutes needs a positive number');
  return options;
}
