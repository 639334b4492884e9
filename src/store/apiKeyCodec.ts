/**
 * API keys: generated from crypto randomness, stored and compared only as
 * SHA-256 digests so the database and the logs never hold a usable key.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'mow_';
/** A registration's claim token (src/publicService/keySealing.ts); here so the access log redacts it in every install. */
export const CLAIM_TOKEN_PREFIX = 'mowclaim_';
const KEY_RANDOM_BYTES = 32;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
}

/** SHA-256 of the key (UTF-8). crypto.hash: one call, no Hash object per request. */
export function apiKeyDigest(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/** SHA-256 of the key as lowercase hex; this is what api_keys.key_hash holds. */
export function hashApiKey(key: string): string {
  return apiKeyDigest(key).toString('hex');
}

/** Constant-time comparison of two digests; a length mismatch costs the same time. */
export function digestBytesEqual(left: Buffer, right: Buffer): boolean {
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Constant-time comparison of two hex digests (configured upload secrets). */
export function digestsEqual(leftHex: string, rightHex: string): boolean {
  return digestBytesEqual(Buffer.from(leftHex, 'hex'), Buffer.from(rightHex, 'hex'));
}
