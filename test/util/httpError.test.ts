import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/util/httpError.js';

describe('HttpError', () => {
  it('captures no stack (an expected answer, never logged with one) and leaves other errors their stacks', () => {
    const limit = Error.stackTraceLimit;
    const error = new HttpError(401, 'Invalid API key.');
    expect(error).toBeInstanceOf(Error);
    expect([error.statusCode, error.message, error.name]).toEqual([401, 'Invalid API key.', 'HttpError']);
    expect(error.stack ?? '').not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('other').stack).toMatch(/\n\s+at /);
  });
});
