/**
 * An approved registration's API key waits in the database until the
 * registrant claims it. It must not wait in the clear (the database would hold
 * a usable key), a hash is not enough (the key is shown once, at claim), and
 * the operator approves in another process that never sees the claim token.
 *
 * So each registration gets an X25519 key pair (RFC 7748) when it arrives: the
 * public half is stored as is, the private half encrypted under a key derived
 * from the claim token (HKDF-SHA256, RFC 5869; AES-256-GCM, NIST SP 800-38D).
 * Approval seals the new API key to the public half (ephemeral X25519 + HKDF +
 * AES-256-GCM); only a request carrying the claim token can open it. After the
 * claim both sealed values are deleted. Claim tokens carry 256 random bits, so
 * no slow password KDF is needed.
 */
import { CLAIM_TOKEN_PREFIX } from '../store/apiKeyCodec.js';
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function generateClaimToken(): string {
  return CLAIM_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

function derive(secret: string | Buffer, salt: string, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
}

function encrypt(plain: Buffer, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

function decrypt(sealed: string, key: Buffer): Buffer | undefined {
  const [iv, ciphertext, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !ciphertext || !tag || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return undefined;
  }
}

const publicDer = (key: KeyObject): string => key.export({ type: 'spki', format: 'der' }).toString('base64url');
const publicFrom = (der: string): KeyObject => createPublicKey({ key: Buffer.from(der, 'base64url'), type: 'spki', format: 'der' });

export interface RegistrationSeal {
  /** The public half (SPKI DER, base64url). */
  publicKey: string;
  /** The private half (PKCS#8 DER), encrypted under the claim token. */
  sealedPrivateKey: string;
}

/** A fresh key pair for one registration; the private half opens only with `claimToken`. */
export function createRegistrationSeal(claimToken: string, registrationSalt: string): RegistrationSeal {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const privateDer = privateKey.export({ type: 'pkcs8', format: 'der' });
  return { publicKey: publicDer(publicKey), sealedPrivateKey: encrypt(privateDer, derive(claimToken, registrationSalt, 'claim token')) };
}

/** Seals `apiKey` to a registration's public half (done by the approving operator). */
export function sealToRegistration(apiKey: string, publicKey: string): string {
  const ephemeral = generateKeyPairSync('x25519');
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: publicFrom(publicKey) });
  return `${publicDer(ephemeral.publicKey)}~${encrypt(Buffer.from(apiKey, 'utf8'), derive(shared, publicKey, 'api key'))}`;
}

/** The API key, or undefined when the token does not open the seal (wrong token, tampered row). */
export function openWithClaimToken(
  seal: RegistrationSeal,
  sealedKey: string,
  claimToken: string,
  registrationSalt: string,
): string | undefined {
  const privateDer = decrypt(seal.sealedPrivateKey, derive(claimToken, registrationSalt, 'claim token'));
  const [ephemeralDer, sealed] = sealedKey.split('~');
  if (!privateDer || !ephemeralDer || !sealed) return undefined;
  try {
    const privateKey = createPrivateKey({ key: privateDer, type: 'pkcs8', format: 'der' });
    const shared = diffieHellman({ privateKey, publicKey: publicFrom(ephemeralDer) });
    return decrypt(sealed, derive(shared, seal.publicKey, 'api key'))?.toString('utf8');
  } catch {
    return undefined;
  }
}
