import { describe, expect, it } from 'vitest';
import { otherGcFlags } from '../../bench/http.bench.js';

describe('the HTTP bench p99 comparison server', () => {
  it('adds --single-threaded-gc when the shipped start lacks it, and removes it when it has it', () => {
    expect(otherGcFlags(['--max-semi-space-size=2'])).toEqual({ nodeArgs: ['--max-semi-space-size=2', '--single-threaded-gc'], label: 'with --single-threaded-gc' });
    expect(otherGcFlags(['--single-threaded-gc', '--max-semi-space-size=2'])).toEqual({ nodeArgs: ['--max-semi-space-size=2'], label: 'without --single-threaded-gc' });
  });
});
