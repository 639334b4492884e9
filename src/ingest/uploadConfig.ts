/**
 * Validation of a station's `upload` block (ecowitt-http, wunderground): the
 * SHA-256 digests that match an upload to the station. Plain secrets are
 * refused so that a config file never holds a usable PASSKEY or PASSWORD.
 */
import { isUploadFormat } from './types.js';
import { SHA256_HEX } from './uploadStations.js';

type Problem = (key: string, message: string) => void;

const HINT = 'run "mowability upload-secret" and paste the line it prints';
/** The keys each upload format needs. */
export const UPLOAD_KEYS: Readonly<Record<string, readonly string[]>> = {
  'ecowitt-http': ['passkeySha256'],
  wunderground: ['stationId', 'passwordSha256'],
};
/** WU station ids are short letters and digits (e.g. KCASANFR123); leave room for other services' ids. */
const STATION_ID = /^[\x21-\x7e]{1,64}$/;

/**
 * The fix for an upload block written for the other protocol: its keys name the format it needs
 * (a PASSKEY: Ecowitt gateways and Ambient consoles; an ID and PASSWORD: the Weather Underground protocol).
 */
const OTHER_FORMAT_FIX: Readonly<Record<string, { key: string; fix: string }>> = {
  wunderground: {
    key: 'passkeySha256',
    fix:
      'a PASSKEY (an Ecowitt gateway, or an Ambient console\'s MAC) is matched by format "ecowitt-http": set this station\'s "format" to "ecowitt-http" and keep "upload": {"passkeySha256": "..."}; ' +
      'it takes the console\'s uploads on either path, http.ecowittUploadPath and /weatherstation/updateweatherstation.php ("mowability upload-secret ambient" prints the line for an Ambient MAC)',
  },
  'ecowitt-http': {
    key: 'passwordSha256',
    fix: 'a station ID and PASSWORD are matched by format "wunderground": set this station\'s "format" to "wunderground" with "upload": {"stationId": "...", "passwordSha256": "..."} ("mowability upload-secret wunderground STATION_ID" prints it)',
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function uploadProblems(format: unknown, upload: unknown, problem: Problem): void {
  const keys = typeof format === 'string' ? UPLOAD_KEYS[format] : undefined;
  if (!keys) {
    if (upload !== undefined) problem('upload', 'is only used by the formats "ecowitt-http" and "wunderground"');
    return;
  }
  const example = keys.map((key) => `"${key}": "..."`).join(', ');
  if (!isPlainObject(upload)) return problem('upload', `is required for format "${String(format)}": {${example}}; ${HINT}`);
  const other = OTHER_FORMAT_FIX[String(format)]!;
  if (Object.hasOwn(upload, other.key) && !keys.some((key) => Object.hasOwn(upload, key))) {
    return problem(`upload.${other.key}`, `is not used by format "${String(format)}": ${other.fix}`);
  }
  for (const key of Object.keys(upload))
    if (!keys.includes(key)) problem(`upload.${key}`, `is not allowed for format "${String(format)}" (only ${keys.join(', ')})`);
  for (const key of keys) {
    const value = upload[key];
    if (key === 'stationId') {
      if (typeof value !== 'string' || !STATION_ID.test(value))
        problem('upload.stationId', 'must be the station ID the station sends as "ID" (1 to 64 printable characters)');
    } else if (typeof value !== 'string' || !SHA256_HEX.test(value)) {
      problem(`upload.${key}`, `must be a SHA-256 digest (64 lowercase hex digits), not the secret itself; ${HINT}`);
    }
  }
}

/** Two stations with the same credentials: an upload could not tell them apart. */
export function sharedUploadProblems(stations: readonly unknown[]): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const [index, station] of stations.entries()) {
    if (!isPlainObject(station) || typeof station.format !== 'string' || !isUploadFormat(station.format) || !isPlainObject(station.upload))
      continue;
    const { passkeySha256, stationId } = station.upload;
    const identity = station.format === 'ecowitt-http' ? `e:${String(passkeySha256)}` : `w:${String(stationId)}`;
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      const what = station.format === 'ecowitt-http' ? 'upload.passkeySha256' : 'upload.stationId';
      problems.push(`stations[${index}].${what} is the same as stations[${earlier}]'s; each uploading station needs its own`);
    } else seen.set(identity, index);
  }
  return problems;
}
