/** The contract between bench/run.ts and each benchmark module. */
import type { Figure } from './report.js';

export interface BenchContext {
  quick: boolean;
  /** Repository root (where package.json and dist/ live). */
  repoRoot: string;
  log: (message: string) => void;
  /** Extra node flags for daemon processes the benchmarks spawn (--node-arg=…). */
  daemonNodeArgs: readonly string[];
  /** Figures of benchmarks that already ran in this invocation, by benchmark name then figure id. */
  earlier: Map<string, Map<string, Figure>>;
}

export interface BenchOutcome {
  figures: Figure[];
  details: Record<string, unknown>;
}

export interface Benchmark {
  name: string;
  title: string;
  run(context: BenchContext): Promise<BenchOutcome>;
}
