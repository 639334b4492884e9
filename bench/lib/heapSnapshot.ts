/**
 * Reading V8 heap snapshots (`.heapsnapshot`, as written by `--heapsnapshot-signal`, `v8.writeHeapSnapshot()`
 * or DevTools) for `bench/heapDiff.ts`: the nodes grouped by what they are, and two such summaries compared.
 *
 * The format is one JSON object whose `snapshot.meta` names the layout: `nodes` is a flat array of
 * `node_fields.length` numbers per node (type index, name index into `strings`, id, self size, edge count, …),
 * `edges` a flat array of `edge_fields.length` numbers per edge (type, name or index, the target's offset in
 * `nodes`), the edges of each node following each other in node order. Field positions are looked up by
 * name, never assumed.
 */

export interface HeapSnapshotJson {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: unknown[];
      edge_fields: string[];
      edge_types: unknown[];
    };
  };
  nodes: ArrayLike<number>;
  edges: ArrayLike<number>;
  strings: string[];
}

/** How many nodes of one group and their own (shallow) bytes. */
export interface GroupTotals {
  count: number;
  selfSize: number;
}

export interface HeapSummary {
  /** Per group (see `groupName`). */
  groups: Map<string, GroupTotals>;
  totalCount: number;
  totalSize: number;
}

/** Node types whose names are contents (a string's text, a number's value, code): grouped by type alone. */
const BY_TYPE_ONLY = new Set([
  'string',
  'concatenated string',
  'sliced string',
  'number',
  'heap number',
  'code',
  'symbol',
  'bigint',
  'regexp',
  'hidden',
]);

/**
 * The group of a node as DevTools' summary shows it: objects by constructor name, closures and native
 * objects by name under their type, strings, numbers and code by type alone.
 */
export function groupName(type: string, name: string): string {
  if (type === 'object') return name;
  if (BY_TYPE_ONLY.has(type)) return `(${type})`;
  return `(${type}) ${name}`;
}

interface Layout {
  nodeFieldCount: number;
  type: number;
  name: number;
  selfSize: number;
  edgeCount: number;
  nodeTypes: string[];
  edgeFieldCount: number;
  edgeType: number;
  edgeName: number;
  toNode: number;
  edgeTypes: string[];
}

function fieldIndex(fields: string[], name: string): number {
  const index = fields.indexOf(name);
  if (index < 0) throw new Error(`not a V8 heap snapshot: no "${name}" in its field layout (${fields.join(', ')})`);
  return index;
}

function layoutOf(snapshot: HeapSnapshotJson): Layout {
  const meta = snapshot.snapshot?.meta;
  if (!meta || !Array.isArray(meta.node_fields) || !Array.isArray(meta.edge_fields))
    throw new Error('not a V8 heap snapshot: snapshot.meta with node_fields and edge_fields is missing');
  const nodeTypes = meta.node_types[fieldIndex(meta.node_fields, 'type')];
  const edgeTypes = meta.edge_types[fieldIndex(meta.edge_fields, 'type')];
  if (!Array.isArray(nodeTypes) || !Array.isArray(edgeTypes)) throw new Error('not a V8 heap snapshot: node or edge types are not listed');
  return {
    nodeFieldCount: meta.node_fields.length,
    type: fieldIndex(meta.node_fields, 'type'),
    name: fieldIndex(meta.node_fields, 'name'),
    selfSize: fieldIndex(meta.node_fields, 'self_size'),
    edgeCount: fieldIndex(meta.node_fields, 'edge_count'),
    nodeTypes: nodeTypes as string[],
    edgeFieldCount: meta.edge_fields.length,
    edgeType: fieldIndex(meta.edge_fields, 'type'),
    edgeName: fieldIndex(meta.edge_fields, 'name_or_index'),
    toNode: fieldIndex(meta.edge_fields, 'to_node'),
    edgeTypes: edgeTypes as string[],
  };
}

/** A number of the flat arrays (0 past the end: a truncated file still reads). */
const at = (values: ArrayLike<number>, index: number): number => values[index] ?? 0;

function nodeGroup(snapshot: HeapSnapshotJson, layout: Layout, offset: number): string {
  const type = layout.nodeTypes[at(snapshot.nodes, offset + layout.type)] ?? 'unknown';
  return groupName(type, snapshot.strings[at(snapshot.nodes, offset + layout.name)] ?? '');
}

/** Every node counted once, by group. */
export function summarise(snapshot: HeapSnapshotJson): HeapSummary {
  const layout = layoutOf(snapshot);
  const groups = new Map<string, GroupTotals>();
  let totalCount = 0;
  let totalSize = 0;
  for (let offset = 0; offset < snapshot.nodes.length; offset += layout.nodeFieldCount) {
    const key = nodeGroup(snapshot, layout, offset);
    const size = at(snapshot.nodes, offset + layout.selfSize);
    const totals = groups.get(key);
    if (totals) {
      totals.count++;
      totals.selfSize += size;
    } else groups.set(key, { count: 1, selfSize: size });
    totalCount++;
    totalSize += size;
  }
  return { groups, totalCount, totalSize };
}

export interface GroupChange {
  group: string;
  before: GroupTotals;
  after: GroupTotals;
  countChange: number;
  sizeChange: number;
}

/** Every group present in either summary with its change from `before` to `after`. */
export function compare(before: HeapSummary, after: HeapSummary): GroupChange[] {
  const none: GroupTotals = { count: 0, selfSize: 0 };
  const groups = new Set([...before.groups.keys(), ...after.groups.keys()]);
  return [...groups].map((group) => {
    const a = before.groups.get(group) ?? none;
    const b = after.groups.get(group) ?? none;
    return { group, before: a, after: b, countChange: b.count - a.count, sizeChange: b.selfSize - a.selfSize };
  });
}

/** The `limit` groups that grew most by `by`, largest growth first (ties by name, so the order is stable). */
export function grewMost(changes: readonly GroupChange[], by: 'countChange' | 'sizeChange', limit: number): GroupChange[] {
  return changes
    .filter((change) => change[by] > 0)
    .sort((x, y) => y[by] - x[by] || x.group.localeCompare(y.group))
    .slice(0, limit);
}

/**
 * What holds the nodes of `group`: each retaining edge counted as "<retainer's group> --<edge name>-->", most
 * frequent first. Weak edges are left out (they do not keep anything alive).
 */
export function retainersOf(snapshot: HeapSnapshotJson, group: string, limit: number): Array<{ retainer: string; count: number }> {
  const layout = layoutOf(snapshot);
  const counts = new Map<string, number>();
  let edge = 0;
  for (let offset = 0; offset < snapshot.nodes.length; offset += layout.nodeFieldCount) {
    const edges = at(snapshot.nodes, offset + layout.edgeCount);
    let from: string | undefined;
    for (let i = 0; i < edges; i++, edge += layout.edgeFieldCount) {
      const target = at(snapshot.edges, edge + layout.toNode);
      if (nodeGroup(snapshot, layout, target) !== group) continue;
      const type = layout.edgeTypes[at(snapshot.edges, edge + layout.edgeType)];
      if (type === 'weak') continue;
      // Element and hidden edges carry an index, the others a name in `strings` (a backing store's are numbers too).
      const name = type === 'element' || type === 'hidden' ? '' : (snapshot.strings[at(snapshot.edges, edge + layout.edgeName)] ?? '');
      const label = name === '' || /^\d+$/.test(name) ? '[]' : name;
      from ??= nodeGroup(snapshot, layout, offset);
      const key = `${from} --${label}-->`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .map(([retainer, count]) => ({ retainer, count }))
    .sort((x, y) => y.count - x.count || x.retainer.localeCompare(y.retainer))
    .slice(0, limit);
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const signed = (value: number, format: (n: number) => string = String): string =>
  value > 0 ? `+${format(value)}` : value < 0 ? `−${format(-value)}` : format(0);

/** One Markdown table row per group; `|` in names escaped. */
function table(changes: readonly GroupChange[]): string {
  const rows = changes.map((c) => {
    const name = c.group.replaceAll('|', '\\|').slice(0, 80);
    return `| ${name} | ${c.before.count} → ${c.after.count} (${signed(c.countChange)}) | ${kb(c.before.selfSize)} → ${kb(c.after.selfSize)} (${signed(c.sizeChange, kb)}) |`;
  });
  return ['| Group | Count | Self size |', '|---|---|---|', ...rows].join('\n');
}

/** The report as Markdown text (totals, growth by size, growth by count). */
export function report(before: HeapSummary, after: HeapSummary, top: number): string {
  const changes = compare(before, after);
  const grown = changes.filter((c) => c.sizeChange > 0).reduce((sum, c) => sum + c.sizeChange, 0);
  const shrunk = changes.filter((c) => c.sizeChange < 0).reduce((sum, c) => sum - c.sizeChange, 0);
  return [
    `Nodes: ${before.totalCount} → ${after.totalCount} (${signed(after.totalCount - before.totalCount)}); self size ${kb(before.totalSize)} → ${kb(after.totalSize)} (${signed(after.totalSize - before.totalSize, kb)}: groups that grew ${signed(grown, kb)}, groups that shrank ${signed(-shrunk, kb)})`,
    '',
    `Grew most by self size (top ${top}):`,
    '',
    table(grewMost(changes, 'sizeChange', top)),
    '',
    `Grew most by count (top ${top}):`,
    '',
    table(grewMost(changes, 'countChange', top)),
  ].join('\n');
}
