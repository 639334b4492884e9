import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyDigest, digestBytesEqual, generateApiKey, hashApiKey } from '../../src/store/apiKeyCodec.js';

describe('API key digests', () => {
  it('are SHA-256 of the UTF-8 key: the FIPS 180-2 "abc" vector, and what the database already holds for any key', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const key of [generateApiKey(), 'mow_ä–key', '']) {
      expect(hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
      expect(apiKeyDigest(key).toString('hex')).toBe(hashApiKey(key));
    }
  });

  it('compare equal digests as equal, others (also of another length) as different', () => {
    const digest = apiKeyDigest('mow_a');
    expect(digestBytesEqual(digest, apiKeyDigest('mow_a'))).toBe(true);
    expect(digestBytesEqual(digest, apiKeyDigest('mow_b'))).toBe(false);
    expect(digestBytesEqual(digest, digest.subarray(0, 16))).toBe(false);
  });
});
