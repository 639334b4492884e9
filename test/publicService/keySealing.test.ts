import { describe, expect, it } from 'vitest';
import { createRegistrationSeal, generateClaimToken, openWithClaimToken, sealToRegistration } from '../../src/publicService/keySealing.js';

describe('key sealing for registrations', () => {
  const token = generateClaimToken();
  const seal = createRegistrationSeal(token, 'salt-1');
  const sealed = sealToRegistration('mow_secret-key', seal.publicKey);

  it('opens only with the claim token the seal was made for', () => {
    expect(openWithClaimToken(seal, sealed, token, 'salt-1')).toBe('mow_secret-key');
    expect(openWithClaimToken(seal, sealed, generateClaimToken(), 'salt-1')).toBeUndefined();
    expect(openWithClaimToken(seal, sealed, token, 'salt-2')).toBeUndefined();
  });

  it('stores nothing that contains the key or the token', () => {
    for (const stored of [seal.publicKey, seal.sealedPrivateKey, sealed]) {
      expect(stored).not.toContain('secret-key');
      expect(stored).not.toContain(token.slice(9));
    }
  });

  it('refuses tampered or malformed rows instead of throwing', () => {
    const flipped = sealed.slice(0, -3) + (sealed.endsWith('AAA') ? 'BBB' : 'AAA');
    expect(openWithClaimToken(seal, flipped, token, 'salt-1')).toBeUndefined();
    expect(openWithClaimToken(seal, 'garbage', token, 'salt-1')).toBeUndefined();
    expect(openWithClaimToken({ ...seal, sealedPrivateKey: 'x.y.z' }, sealed, token, 'salt-1')).toBeUndefined();
    expect(openWithClaimToken(seal, `${sealed.split('~')[0]}~AAAA`, token, 'salt-1')).toBeUndefined();
  });
});
