/**
 * Renders a combined results file (default bench/results/latest.json) as the
 * Markdown tables of bench/NOTES.md (the lab notebook; docs/performance.md carries the latest figure per goal):
 * `node dist-bench/bench/markdown.js [file]`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, Figure, MachineInfo } from './lib/report.js';

interface Combined {
  startedAt: string;
  quick: boolean;
  machine: MachineInfo;
  summary: { pass: number; fail: number; notMeasured: number };
  results: BenchResult[];
}

function value(figure: Figure): string {
  if (figure.value === null) return '—';
  if (figure.unit === 'bool') return figure.value >= 1 ? 'yes' : 'no';
  const abs = Math.abs(figure.value);
  const digits = abs >= 1000 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  const text = figure.value.toLocaleString('en-US', { maximumFractionDigits: digits });
  return figure.unit === 'x' ? `${text}×` : `${text} ${figure.unit}`;
}

function goal(figure: Figure): string {
  if (!figure.goal) return '';
  if (figure.unit === 'bool') return 'yes';
  return `${figure.goal.comparison === '>=' ? '≥' : '≤'} ${figure.goal.threshold}${figure.unit === 'x' ? '×' : ` ${figure.unit}`}`;
}

function verdict(figure: Figure): string {
  if (figure.value === null) return figure.goal ? 'not measured' : '';
  if (figure.pass === null) return '';
  return figure.pass ? 'PASS' : '**FAIL**';
}

const file = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'bench', 'results', 'latest.json');
const combined = JSON.parse(readFileSync(file, 'utf8')) as Combined;
const m = combined.machine;
const lines = [
  `Run ${combined.startedAt}${combined.quick ? ' (--quick)' : ''}: ${m.nproc} × ${m.cpuModel}, ${m.totalMemoryMb} MB RAM, Node ${m.node} ${m.arch}; ` +
    `${combined.summary.pass} PASS, ${combined.summary.fail} FAIL, ${combined.summary.notMeasured} not measured.`,
  '',
];
for (const result of combined.results) {
  lines.push(`### ${result.title}`, '', '| Figure | Value | Goal | Result | Note |', '|---|---|---|---|---|');
  for (const figure of result.figures) {
    lines.push(
      `| ${figure.label} | ${value(figure)} | ${goal(figure)} | ${verdict(figure)} | ${(figure.note ?? '').replace(/\|/g, '\\|')} |`,
    );
  }
  lines.push('');
}
process.stdout.write(`${lines.join('\n')}\n`);
