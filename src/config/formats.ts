/**
 * Convict formats with strict coercion of environment and command-line
 * strings. Convict's own coercion turns any string except "false" into true
 * and "80abc" into port 80; these keep a malformed string unchanged so that
 * validation rejects it with a message naming the allowed values.
 */
import convict from 'convict';
import { validateBrokerUsers } from './mqttValues.js';
import { coerceTrustProxy, parseTrustProxy } from './trustProxy.js';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

function coerceBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}

/** JSON from the environment or a credential; malformed JSON stays a string for validation to reject (without echoing it). */
function coerceJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function coerceInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return value;
  return Number(value);
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const FORMATS: Record<string, convict.Format> = {
  boolean: {
    validate(value: unknown) {
      if (typeof value !== 'boolean') throw new Error('must be true or false (also accepted: 1/0, yes/no, on/off)');
    },
    coerce: coerceBoolean,
  },
  port: {
    validate(value: unknown) {
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 65535) {
        throw new Error('must be a TCP port number from 0 to 65535');
      }
    },
    coerce: coerceInteger,
  },
  nat: {
    validate(value: unknown) {
      if (!Number.isSafeInteger(value) || (value as number) < 0) throw new Error('must be a whole number, 0 or more');
    },
    coerce: coerceInteger,
  },
  'positive-int': {
    validate(value: unknown) {
      if (!Number.isSafeInteger(value) || (value as number) < 1) throw new Error('must be a whole number, 1 or more');
    },
    coerce: coerceInteger,
  },
  'ipv6-prefix-length': {
    validate(value: unknown) {
      if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 128) {
        throw new Error('must be an IPv6 prefix length, a whole number from 1 to 128 (64: one home network)');
      }
    },
    coerce: coerceInteger,
  },
  'non-empty-string': {
    validate(value: unknown) {
      if (typeof value !== 'string' || value.trim() === '') throw new Error('must be a non-empty string');
    },
  },
  'trust-proxy': {
    validate(value: unknown) {
      parseTrustProxy(value);
    },
    coerce: coerceTrustProxy,
  },
  'broker-users': {
    validate(value: unknown) {
      if (typeof value === 'string')
        throw new Error('must be a JSON list of {"username": ..., "password": ...}; the text given is not valid JSON');
      validateBrokerUsers(value);
    },
    coerce: coerceJson,
  },
  timezone: {
    validate(value: unknown) {
      if (typeof value !== 'string' || (value !== '' && !isValidTimeZone(value))) {
        throw new Error('must be an IANA time zone such as "Europe/Berlin" or "UTC", or empty for the system time zone');
      }
    },
  },
};

/**
 * Registers the formats with convict. Convict keeps formats in a module-wide
 * registry, so this runs when configuration is loaded, never at import; doing
 * it again is harmless.
 */
export function registerConfigFormats(): void {
  convict.addFormats(FORMATS);
}
