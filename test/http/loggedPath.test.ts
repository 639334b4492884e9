/**
 * The path an unmatched request is logged with: a segment that could be a secret (after
 * `registrations`, or reading as a claim token or API key) is replaced, every other path is
 * logged as it came. The redaction of real requests to the claim route is checked with the public
 * service's tests.
 */
import { describe, expect, it } from 'vitest';
import { redactPath } from '../../src/http/loggedPath.js';

describe('redactPath', () => {
  it('leaves other unmatched paths as they were, and replaces API keys too', () => {
    expect(redactPath('/v1/nothing/here/')).toBe('/v1/nothing/here/');
    expect(redactPath('/v1/registrations/')).toBe('/v1/registrations/');
    expect(redactPath('/v1/keys/mow_abcdef/x')).toBe('/v1/keys/:redacted/x');
    expect(redactPath('/v1/keys/MOW%5Fabcdef')).toBe('/v1/keys/:redacted');
  });
});
