import { describe, expect, it } from 'vitest';
import { compare, grewMost, groupName, report, retainersOf, summarise, type HeapSnapshotJson } from '../../bench/lib/heapSnapshot.js';

/** Node fields in an order unlike V8's, so a reader that assumes positions fails (the types list sits at the type field's position). */
const NODE_FIELDS = ['name', 'type', 'edge_count', 'id', 'self_size'];
const NODE_TYPES = [
  'hidden',
  'array',
  'string',
  'object',
  'code',
  'closure',
  'regexp',
  'number',
  'native',
  'synthetic',
  'concatenated string',
  'sliced string',
  'symbol',
  'bigint',
  'object shape',
];
const EDGE_FIELDS = ['type', 'name_or_index', 'to_node'];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];

interface Node {
  type: string;
  name: string;
  size: number;
  edges?: Array<{ type: string; name: string | number; to: number }>;
}

/** A snapshot object in V8's layout from a readable list of nodes (edges point at list positions). */
function snapshotOf(nodes: Node[]): HeapSnapshotJson {
  const strings: string[] = [];
  const string = (text: string): number => {
    const index = strings.indexOf(text);
    return index >= 0 ? index : strings.push(text) - 1;
  };
  const flatNodes: number[] = [];
  const flatEdges: number[] = [];
  nodes.forEach((node, id) => {
    flatNodes.push(string(node.name), NODE_TYPES.indexOf(node.type), node.edges?.length ?? 0, id * 2 + 1, node.size);
    for (const edge of node.edges ?? []) {
      flatEdges.push(
        EDGE_TYPES.indexOf(edge.type),
        typeof edge.name === 'number' ? edge.name : string(edge.name),
        edge.to * NODE_FIELDS.length,
      );
    }
  });
  return {
    snapshot: {
      meta: {
        node_fields: NODE_FIELDS,
        node_types: ['string', NODE_TYPES, 'number', 'number', 'number'],
        edge_fields: EDGE_FIELDS,
        edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
      },
    },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
  };
}

const root = (edges: Node['edges']): Node => ({ type: 'synthetic', name: '(GC roots)', size: 0, edges });

const BEFORE = snapshotOf([
  root([{ type: 'property', name: 'cache', to: 1 }]),
  { type: 'object', name: 'Map', size: 40, edges: [{ type: 'internal', name: 'table', to: 2 }] },
  { type: 'array', name: '(object elements)', size: 100 },
  { type: 'string', name: 'hello', size: 24 },
  { type: 'closure', name: 'onTick', size: 32 },
]);

const AFTER = snapshotOf([
  root([
    { type: 'property', name: 'cache', to: 1 },
    { type: 'property', name: 'buckets', to: 3 },
  ]),
  { type: 'object', name: 'Map', size: 40, edges: [{ type: 'internal', name: 'table', to: 2 }] },
  {
    type: 'array',
    name: '(object elements)',
    size: 300,
    edges: [
      { type: 'internal', name: '4', to: 4 },
      { type: 'internal', name: '5', to: 5 },
    ],
  },
  {
    type: 'object',
    name: 'Array',
    size: 32,
    edges: [
      { type: 'element', name: 0, to: 4 },
      { type: 'element', name: 1, to: 5 },
      { type: 'weak', name: 'ref', to: 6 },
    ],
  },
  { type: 'object', name: 'Bucket', size: 64 },
  { type: 'object', name: 'Bucket', size: 64 },
  { type: 'object', name: 'Bucket', size: 64 },
  { type: 'string', name: 'world', size: 20 },
  { type: 'string', name: 'again', size: 20 },
]);

describe('heap snapshot summary and diff', () => {
  it('groups objects by constructor, named types under their type and contents by type alone', () => {
    expect(groupName('object', 'Bucket')).toBe('Bucket');
    expect(groupName('closure', 'onTick')).toBe('(closure) onTick');
    expect(groupName('array', '(object elements)')).toBe('(array) (object elements)');
    expect(groupName('string', 'any text')).toBe('(string)');
    expect(groupName('code', 'someFunction')).toBe('(code)');
  });

  it('counts every node once with its self size, reading the field positions from the meta', () => {
    const summary = summarise(AFTER);
    expect(summary.totalCount).toBe(9);
    expect(summary.totalSize).toBe(40 + 300 + 32 + 3 * 64 + 20 + 20);
    expect(summary.groups.get('Bucket')).toEqual({ count: 3, selfSize: 192 });
    expect(summary.groups.get('(string)')).toEqual({ count: 2, selfSize: 40 });
    expect(summary.groups.get('(synthetic) (GC roots)')).toEqual({ count: 1, selfSize: 0 });
  });

  it('ranks the groups that grew, by size and by count, and keeps the ones that went away', () => {
    const changes = compare(summarise(BEFORE), summarise(AFTER));
    expect(grewMost(changes, 'sizeChange', 2).map((c) => [c.group, c.sizeChange])).toEqual([
      ['(array) (object elements)', 200],
      ['Bucket', 192],
    ]);
    expect(grewMost(changes, 'countChange', 10).map((c) => [c.group, c.countChange])).toEqual([
      ['Bucket', 3],
      ['(string)', 1],
      ['Array', 1],
    ]);
    const closure = changes.find((c) => c.group === '(closure) onTick');
    expect(closure).toMatchObject({
      before: { count: 1, selfSize: 32 },
      after: { count: 0, selfSize: 0 },
      countChange: -1,
      sizeChange: -32,
    });
    expect(changes.find((c) => c.group === 'Map')).toMatchObject({ countChange: 0, sizeChange: 0 });
  });

  it('lists what holds a group, without weak edges, backing-store indices folded into one', () => {
    expect(retainersOf(AFTER, 'Bucket', 10)).toEqual([
      { retainer: '(array) (object elements) --[]-->', count: 2 },
      { retainer: 'Array --[]-->', count: 2 },
    ]);
    expect(retainersOf(AFTER, '(string)', 10)).toEqual([]);
    expect(retainersOf(AFTER, '(object elements)', 10)).toEqual([]);
    expect(retainersOf(AFTER, '(array) (object elements)', 10)).toEqual([{ retainer: 'Map --table-->', count: 1 }]);
  });

  it('reports totals and both rankings', () => {
    const text = report(summarise(BEFORE), summarise(AFTER), 5);
    expect(text).toContain('Nodes: 5 → 9 (+4); self size 0.2 KB → 0.6 KB (+0.4 KB');
    expect(text).toContain('| Bucket | 0 → 3 (+3) | 0.0 KB → 0.2 KB (+0.2 KB) |');
    expect(text).not.toContain('onTick');
  });

  it('refuses a file that is not a V8 heap snapshot', () => {
    expect(() => summarise({ nodes: [], edges: [], strings: [] } as unknown as HeapSnapshotJson)).toThrow(/not a V8 heap snapshot/);
    const noSize = snapshotOf([]);
    noSize.snapshot.meta.node_fields = ['name', 'type', 'edge_count', 'id'];
    expect(() => summarise(noSize)).toThrow(/no "self_size"/);
  });
});
