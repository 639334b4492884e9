/**
 * Which configured station an upload comes from: the SHA-256 of the PASSKEY
 * (an Ecowitt gateway's, or an Ambient console's MAC, written canonically:
 * upper case with colons, however the console spells it), or the WU station
 * ID plus the SHA-256 of its PASSWORD, compared
 * in constant time (src/store/apiKeyCodec.ts) against every station of the
 * protocol, so the time taken does not tell how much of a secret matched.
 */
import { isUploadFormat, type StationConfig, type UploadFormat } from '../ingest/types.js';
import { digestsEqual, hashApiKey } from '../store/apiKeyCodec.js';

/** Why an upload matched no station; a label value of the refusal counter. */
export type NoMatch = 'missing_credentials' | 'unknown_passkey' | 'unknown_station_id' | 'wrong_password';

export type Match = { station: StationConfig } | { refused: NoMatch };

/** SHA-256 (lowercase hex) of a secret as the config holds it; the same digest as API keys. */
export const uploadSecretDigest = hashApiKey;

/** Six hex pairs with or without ":" or "-" between them: a MAC, as Ambient consoles send as PASSKEY. */
const MAC = /^[0-9a-f]{2}(?:([:-]?)[0-9a-f]{2})(?:\1[0-9a-f]{2}){4}$/i;

/** A PASSKEY as it is hashed: a MAC in one spelling (AA:BB:CC:DD:EE:FF), anything else unchanged. */
export function canonicalPasskey(passkey: string): string {
  const trimmed = passkey.trim();
  if (!MAC.test(trimmed)) return passkey;
  const hex = trimmed.replace(/[:-]/g, '').toUpperCase();
  return hex.match(/../g)!.join(':');
}

/** The digest a station's `upload.passkeySha256` holds for this PASSKEY. */
export function passkeyDigest(passkey: string): string {
  return uploadSecretDigest(canonicalPasskey(passkey));
}

export interface UploadMatcher {
  ecowitt(passkey: unknown): Match;
  wunderground(stationId: unknown, password: unknown): Match;
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function createUploadMatcher(stations: readonly StationConfig[]): UploadMatcher {
  const byFormat = (format: UploadFormat) =>
    stations.filter((station) => isUploadFormat(station.format) && station.format === format && station.upload);
  const ecowittStations = byFormat('ecowitt-http');
  const wuStations = byFormat('wunderground');
  return {
    ecowitt(passkey) {
      const secret = single(passkey);
      if (secret === undefined) return { refused: 'missing_credentials' };
      const digest = passkeyDigest(secret);
      let found: StationConfig | undefined;
      // No early exit: every station costs one comparison whichever matches.
      for (const station of ecowittStations) if (digestsEqual(digest, station.upload?.passkeySha256 ?? '') && !found) found = station;
      return found ? { station: found } : { refused: 'unknown_passkey' };
    },
    wunderground(stationId, password) {
      const id = single(stationId);
      const secret = single(password);
      if (id === undefined || secret === undefined) return { refused: 'missing_credentials' };
      const station = wuStations.find((candidate) => candidate.upload?.stationId === id);
      if (!station) return { refused: 'unknown_station_id' };
      return digestsEqual(uploadSecretDigest(secret), station.upload?.passwordSha256 ?? '') ? { station } : { refused: 'wrong_password' };
    },
  };
}
