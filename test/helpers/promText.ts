/**
 * A strict parser for the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): every line
 * is a HELP or TYPE comment or a sample; every sample belongs to a family
 * declared by TYPE before it; histograms have cumulative buckets ending in
 * +Inf that equal _count. Throws on anything else, naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL}(?:,|(?=\\})))*)\\})? (\\S+)(?: (-?\\d+))?$`);
const COMMENT = new RegExp(`^# (HELP|TYPE) (${NAME}) ?(.*)$`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/** Values as Go's strconv.ParseFloat reads them (the format's definition): NaN and Inf in any letter case. */
function parseValue(text: string, line: string): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || Number.isNaN(value)) throw new Error(`bad value in: ${line}`);
  return value;
}

function parseLabels(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!text) return labels;
  for (const match of text.matchAll(new RegExp(LABEL, 'g'))) {
    const [, key = '', raw = ''] = match;
    if (Object.hasOwn(labels, key)) throw new Error(`repeated label ${key}`);
    labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  if (families.has(name)) return families.get(name);
  for (const family of families.values()) {
    if ((SUFFIXES[family.type] ?? []).some((suffix) => name === family.name + suffix)) return family;
  }
  return undefined;
}

function checkHistogram(family: Family): void {
  const groups = new Map<string, Sample[]>();
  for (const sample of family.samples.filter((s) => s.name.endsWith('_bucket'))) {
    const { le, ...rest } = sample.labels;
    if (le === undefined) throw new Error(`${family.name}: bucket without le`);
    const key = JSON.stringify(rest);
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  for (const [key, buckets] of groups) {
    const bounds = buckets.map((b) => parseValue(b.labels.le ?? '', b.name));
    if (bounds.at(-1) !== Infinity) throw new Error(`${family.name}${key}: last bucket is not +Inf`);
    for (let i = 1; i < buckets.length; i++) {
      if (bounds[i]! <= bounds[i - 1]! || buckets[i]!.value < buckets[i - 1]!.value)
        throw new Error(`${family.name}${key}: buckets not cumulative`);
    }
    const count = family.samples.find((s) => s.name === `${family.name}_count` && JSON.stringify(s.labels) === key);
    if (count?.value !== buckets.at(-1)!.value) throw new Error(`${family.name}${key}: _count differs from the +Inf bucket`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  if (!text.endsWith('\n')) throw new Error('exposition must end with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const comment = COMMENT.exec(line);
    if (comment) {
      const [, kind, name = '', rest = ''] = comment;
      const family = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest) || family.samples.length > 0) throw new Error(`bad TYPE line: ${line}`);
        family.type = rest as Family['type'];
      } else family.help = rest;
      families.set(name, family);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const family = familyOf(sample[1] ?? '', families);
    if (!family) throw new Error(`sample without a TYPE: ${line}`);
    family.samples.push({
      name: sample[1] ?? '',
      labels: parseLabels(sample[2]),
      value: parseValue(sample[sample.length - 2] ?? '', line),
    });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = familyOf(name, families);
  const matches = (family?.samples ?? []).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (matches.length > 1) throw new Error(`${name}: ${matches.length} samples match ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}
