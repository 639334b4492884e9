import { describe, expect, it } from 'vitest';
import { otherGcFlags } from '../../bench/http.bench.js';
import { partsOf } from '../../bench/httpProfile.js';

describe('the HTTP bench p99 comparison server', () => {
  it('adds --single-threaded-gc when the shipped start lacks it, and removes it when it has it', () => {
    expect(otherGcFlags(['--max-semi-space-size=2'])).toEqual({
      nodeArgs: ['--max-semi-space-size=2', '--single-threaded-gc'],
      label: 'with --single-threaded-gc',
    });
    expect(otherGcFlags(['--single-threaded-gc', '--max-semi-space-size=2'])).toEqual({
      nodeArgs: ['--max-semi-space-size=2'],
      label: 'without --single-threaded-gc',
    });
  });
});

describe('the HTTP profile grouping', () => {
  it('charges a sample to the innermost known part, pino frames to their caller, V8 entries to themselves', () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
      id,
      callFrame: { functionName, url },
      children,
    });
    const profile = {
      nodes: [
        frame(1, '(root)', '', [2, 6, 7]),
        frame(2, 'handler', 'file:///x/node_modules/fastify/lib/handle-request.js', [3, 4]),
        frame(3, 'calculate', 'file:///x/dist-bench/src/core/calculate.js'),
        frame(4, '(anon)', 'file:///x/dist-bench/src/http/accessLog.js', [5]),
        frame(5, 'write', 'file:///x/node_modules/pino/lib/proto.js'),
        frame(6, '(garbage collector)', ''),
        frame(7, 'writev', ''),
      ],
      samples: [3, 3, 5, 6, 7, 2],
    };
    expect(Object.fromEntries(partsOf(profile))).toEqual({
      'calculate()': 2,
      'access line': 1,
      '(garbage collector)': 1,
      'socket write': 1,
      fastify: 1,
    });
  });
});
