/**
 * Figures, goals and the PASS/FAIL table every benchmark prints, plus the
 * JSON written to bench/results/. A figure that could not be measured says
 * why instead of carrying a number.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { round } from './stats.js';

export type Comparison = '>=' | '<=';

export interface Goal {
  comparison: Comparison;
  threshold: number;
}

export interface Figure {
  id: string;
  label: string;
  /** null when not measured. */
  value: number | null;
  unit: string;
  goal: Goal | null;
  /** true/false against the goal; null when there is no goal or no value. */
  pass: boolean | null;
  /** Why the figure is missing, or extra context (rounds, baseline values). */
  note?: string;
}

export interface BenchResult {
  name: string;
  title: string;
  figures: Figure[];
  /** Raw per-round data, kept in the JSON only. */
  details: Record<string, unknown>;
  durationMs: number;
}

export function measured(id: string, label: string, value: number, unit: string, goal?: Goal, note?: string): Figure {
  const finite = Number.isFinite(value);
  const pass = goal && finite ? (goal.comparison === '>=' ? value >= goal.threshold : value <= goal.threshold) : goal ? false : null;
  const figure: Figure = { id, label, value: finite ? value : null, unit, goal: goal ?? null, pass };
  if (note !== undefined) figure.note = note;
  else if (!finite) figure.note = 'no finite value';
  return figure;
}

export function notMeasured(id: string, label: string, unit: string, reason: string, goal?: Goal): Figure {
  return { id, label, value: null, unit, goal: goal ?? null, pass: null, note: `not measured: ${reason}` };
}

export const atLeast = (threshold: number): Goal => ({ comparison: '>=', threshold });
export const atMost = (threshold: number): Goal => ({ comparison: '<=', threshold });

function formatValue(value: number | null, unit = ''): string {
  if (value === null) return '—';
  if (unit === 'bool') return value >= 1 ? 'yes' : 'no';
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return round(value, digits).toLocaleString('en-US', { maximumFractionDigits: digits });
}

function formatGoal(goal: Goal | null, unit: string): string {
  if (!goal) return '';
  if (unit === 'bool') return goal.threshold >= 1 ? 'yes' : 'no';
  return `${goal.comparison === '>=' ? '≥' : '≤'} ${goal.threshold}${unit === 'x' ? 'x' : ` ${unit}`}`;
}

function verdict(figure: Figure): string {
  if (figure.value === null) return figure.goal ? 'NOT MEASURED' : '';
  if (figure.pass === null) return 'info';
  return figure.pass ? 'PASS' : 'FAIL';
}

export function renderTable(result: BenchResult): string {
  const rows = result.figures.map((figure) => [
    figure.label,
    figure.value === null
      ? '—'
      : figure.unit === 'bool'
        ? formatValue(figure.value, 'bool')
        : `${formatValue(figure.value)}${figure.unit === 'x' ? 'x' : ` ${figure.unit}`}`,
    formatGoal(figure.goal, figure.unit),
    verdict(figure),
    figure.note ?? '',
  ]);
  const header = ['figure', 'value', 'goal', 'result', 'note'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-|-');
  return [`## ${result.title} (${(result.durationMs / 1000).toFixed(1)} s)`, line(header), rule, ...rows.map(line), ''].join('\n');
}

export interface MachineInfo {
  nproc: number;
  cpuModel: string;
  totalMemoryMb: number;
  node: string;
  platform: string;
  arch: string;
}

export function machineInfo(): MachineInfo {
  const cpuList = cpus();
  return {
    nproc: cpuList.length,
    cpuModel: cpuList[0]?.model ?? 'unknown',
    totalMemoryMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
  };
}

export function writeJson(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}

export function resultsPath(resultsDir: string, name: string, startedAt: Date): string {
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  return join(resultsDir, `${name}-${stamp}.json`);
}
