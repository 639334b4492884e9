/**
 * API keys: generated from crypto randomness, stored and compared only as
 * SHA-256 digests so the database and the logs never hold a usable key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'mow_';
const KEY_RANDOM_BYTES = 32;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
}

/** SHA-256 of the key as lowercase hex; this is what api_keys.key_hash holds. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(leftHex: string, rightHex: string): boolean {
  const left = Buffer.from(leftHex, 'hex');
  const right = Buffer.from(rightHex, 'hex');
  if (left.length !== right.length) {
    // Compare with itself so that a length mismatch costs the same time.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
