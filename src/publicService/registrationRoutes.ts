/**
 * The public service's registration: POST /v1/registrations (ask for a key)
 * and GET /v1/registrations/{claim_token} (learn the decision; the key exactly
 * once, sealed until then by src/publicService/keySealing.ts). Registered only when
 * registration.enabled is on, in the /v1 scope as open routes (no key). A
 * registration never creates a key by itself: the operator approves it with
 * `mowability registrations approve`. The body is validated here so each
 * problem gets a clear 400 naming the field; only what review needs is kept
 * (docs/api.md says what is stored and why).
 */
import { execFile } from 'node:child_process';
import type { Redis } from 'ioredis';
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { USAGE_KINDS, type RegistrationLimits, type RegistrationStore, type UsageKind } from './registrationStore.js';
import type { Clock } from '../util/clock.js';
import { API_KEYS_PLUGIN, type AccessView } from '../http/auth.js';
import { CLIENT_PREFIX, NETWORK_PREFIX, prefixKey } from '../http/clientAddress.js';
import { MESSAGES } from '../http/errors.js';
import { HttpError } from '../util/httpError.js';
import { API_PREFIX, REGISTRATIONS_PATH } from '../http/paths.js';
import { envelope, errorEnvelopeSchema } from '../http/schemas.js';
import { WindowCounter } from '../http/windowCounter.js';
import { RedisWindowCounter, type WindowCounting } from './redisWindows.js';

export const REGISTRATION_MESSAGES = {
  tooManyAttempts: 'Too many registration attempts from this address. Retry after the time given in the Retry-After header.',
  tooManyPending: 'Too many pending registrations from this address. Wait for the review of the earlier ones.',
  tooManyPendingFromNetwork: 'Too many pending registrations from this network. Wait for the review of the earlier ones.',
  paused: 'Registration is paused until pending registrations have been reviewed. Retry later.',
  unknownClaim: 'Unknown or expired claim token.',
} as const;

export interface RegistrationFields {
  name: string;
  email: string;
  intendedUse: string;
  usageKind: UsageKind;
}

export const REGISTRATION_LIMITS = { name: 200, email: 254, intendedUseMin: 10, intendedUseMax: 2000 } as const;

/** A practical address check (RFC 5321 lengths, one @, a dot in the domain); delivery is the operator's business. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
// C0/C1 controls and bidi characters make a registration unreadable (or misleading) in the review terminal:
// the embeddings, overrides and isolates of Unicode UAX #9, and its implicit marks (ALM U+061C, LRM U+200E,
// RLM U+200F), which reorder neighbouring text as well ("Bob" shown before a name that is not his).
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ACCEPTED = new Set([true, 'true', 'on', 'yes', '1']);

export const registrationBodySchema = {
  type: 'object',
  required: ['name', 'email', 'intended_use', 'usage', 'accept_terms'],
  properties: {
    name: { type: 'string', maxLength: REGISTRATION_LIMITS.name, description: 'Your name.' },
    email: { type: 'string', maxLength: REGISTRATION_LIMITS.email, description: 'Where the operator can reach you about the review.' },
    intended_use: {
      type: 'string',
      minLength: REGISTRATION_LIMITS.intendedUseMin,
      maxLength: REGISTRATION_LIMITS.intendedUseMax,
      description: 'What you want to use the key for.',
    },
    usage: { type: 'string', enum: [...USAGE_KINDS], description: 'private or commercial use.' },
    // anyOf, not `type: [...]`: Ajv's strict mode warns about union types at every start.
    accept_terms: {
      anyOf: [{ type: 'boolean' }, { type: 'string' }],
      description: 'true (form: "true", "on", "yes" or "1"): you accept the terms of use.',
    },
  },
} as const;

export type FieldsOutcome = { ok: true; fields: RegistrationFields } | { ok: false; message: string };

function text(body: Record<string, unknown>, field: string, max: number, min = 1): string | { message: string } {
  const raw = Array.isArray(body[field]) ? (body[field] as unknown[])[0] : body[field];
  if (typeof raw !== 'string' || raw.trim() === '') return { message: `Invalid registration: "${field}" is required.` };
  const value = raw.trim();
  if (value.length > max) return { message: `Invalid registration: "${field}" must be at most ${max} characters.` };
  if (value.length < min) return { message: `Invalid registration: "${field}" must be at least ${min} characters.` };
  if (UNPRINTABLE.test(value)) return { message: `Invalid registration: "${field}" contains control characters.` };
  return value;
}

export function registrationFields(body: unknown): FieldsOutcome {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: 'The request body must be a JSON object or form fields.' };
  const record = body as Record<string, unknown>;
  const name = text(record, 'name', REGISTRATION_LIMITS.name);
  if (typeof name !== 'string') return { ok: false, ...name };
  const email = text(record, 'email', REGISTRATION_LIMITS.email);
  if (typeof email !== 'string') return { ok: false, ...email };
  if (!EMAIL.test(email)) return { ok: false, message: 'Invalid registration: "email" must be an e-mail address.' };
  const intendedUse = text(record, 'intended_use', REGISTRATION_LIMITS.intendedUseMax, REGISTRATION_LIMITS.intendedUseMin);
  if (typeof intendedUse !== 'string') return { ok: false, ...intendedUse };
  const usage = text(record, 'usage', 20);
  if (typeof usage !== 'string' || !(USAGE_KINDS as readonly string[]).includes(usage)) {
    return { ok: false, message: `Invalid registration: "usage" must be one of ${USAGE_KINDS.join(', ')}.` };
  }
  const terms = Array.isArray(record.accept_terms) ? (record.accept_terms as unknown[])[0] : record.accept_terms;
  if (!ACCEPTED.has(typeof terms === 'string' ? terms.toLowerCase() : (terms as boolean))) {
    return { ok: false, message: 'Invalid registration: the terms of use must be accepted ("accept_terms": true).' };
  }
  return { ok: true, fields: { name, email, intendedUse, usageKind: usage as UsageKind } };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface RegistrationSettings {
  claimTokenDays: number;
  maxPendingPerAddress: number;
  maxPendingPerNetwork: number;
  maxPending: number;
  perAddressPerHour: number;
}

/**
 * The limits keyed like the rate limit (docs/api.md, "Registration"): an IPv6 client has a /64
 * (RFC 7421), so its addresses count as one; its network (IPv6 /48, IPv4 /24) has a share of the
 * pending registrations too, so one household or provider cannot fill the global cap.
 */
function pendingLimits(settings: RegistrationSettings): RegistrationLimits<'address' | 'network'> {
  return {
    perKey: [
      { name: 'address', max: settings.maxPendingPerAddress, keyOf: (address) => prefixKey(address, CLIENT_PREFIX) },
      { name: 'network', max: settings.maxPendingPerNetwork, keyOf: (address) => prefixKey(address, NETWORK_PREFIX) },
    ],
    maxPending: settings.maxPending,
  };
}

const REFUSALS = {
  address: [429, REGISTRATION_MESSAGES.tooManyPending],
  network: [429, REGISTRATION_MESSAGES.tooManyPendingFromNetwork],
  paused: [503, REGISTRATION_MESSAGES.paused],
} as const;

export interface RegistrationOptions {
  store: Pick<RegistrationStore, 'createWithinLimits' | 'claim'>;
  settings: RegistrationSettings;
  access: Pick<AccessView, 'maintenance'>;
  clock: Clock;
  /** Told of each new registration (the notify hook); never gets the registrant's data. */
  onRegistered?: (registration: { id: number; pending: number }) => void;
  /** Redis (http.rateLimitStore): the attempts per client and hour are counted across instances. */
  redis?: Redis;
}

const registrationSchema = {
  type: 'object',
  required: ['registration'],
  properties: {
    registration: {
      type: 'object',
      required: ['status'],
      properties: {
        id: { type: 'integer', description: 'Registration number (quote it when you contact the operator).' },
        status: { type: 'string', enum: ['pending', 'approved', 'rejected', 'claimed'], description: 'Where the review stands.' },
        claim_token: {
          type: 'string',
          description: 'Only in the answer to POST: keep it; it is shown once and is the only way to collect the key.',
        },
        claim_url: { type: 'string', description: 'Only in the answer to POST: the path to GET for the decision.' },
        expires_at: { type: 'string', description: 'When the claim token stops working (ISO 8601).' },
        reason: { type: ['string', 'null'], description: "Only when rejected: the operator's reason, if given." },
        api_key: { type: 'string', description: 'Only in the first answer after approval: your API key. It is never shown again.' },
      },
    },
  },
} as const;

const responses = {
  200: envelope(registrationSchema),
  202: envelope(registrationSchema),
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
} as const;

const ROUTE = REGISTRATIONS_PATH.slice(API_PREFIX.length);
/** No key: anyone may ask for one (the limits above and the rate limit protect the route). */
const config = { access: 'open' } as const;

/** Encapsulated, in the /v1 scope (after the key hook; its routes are open), and needs the server's client-address resolver (src/http/server.ts). */
export const registrationPlugin = fp<RegistrationOptions>(
  ((app, deps, done) => {
    registerCreateRoute(app, deps);
    registerClaimRoute(app, deps);
    done();
  }) satisfies FastifyPluginCallback<RegistrationOptions>,
  { name: 'mowability-registration', encapsulate: true, dependencies: [API_KEYS_PLUGIN], decorators: { fastify: ['clientAddressOf'] } },
);

/** POST /v1/registrations: rate-limited per client (/64 or /32), capped per client, network and in all while reviews are pending. */
function registerCreateRoute(app: FastifyInstance, deps: RegistrationOptions): void {
  const { store, settings, clock } = deps;
  const local = new WindowCounter(HOUR_MS);
  const attempts: WindowCounting = deps.redis
    ? new RedisWindowCounter({ redis: deps.redis, windowMs: HOUR_MS, prefix: 'mowability-registration-attempts-', fallback: local })
    : local;
  const limits = pendingLimits(settings);

  app.post(ROUTE, {
    config,
    // Declared for /openapi.json; validated by registrationFields for messages that name the field.
    schema: { body: registrationBodySchema, response: responses },
    attachValidation: true,
    handler: async (request, reply) => {
      if (deps.access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      const nowMs = clock.now();
      const address = app.clientAddressOf(request);
      const attempt = await attempts.hit(prefixKey(address, CLIENT_PREFIX), nowMs);
      if (attempt.count > settings.perAddressPerHour) {
        throw new HttpError(429, REGISTRATION_MESSAGES.tooManyAttempts, { 'retry-after': String(attempt.retryAfterSeconds) });
      }
      const parsed = registrationFields(request.body);
      if (!parsed.ok) throw new HttpError(400, parsed.message);
      const created = await store.createWithinLimits(
        { ...parsed.fields, clientAddress: address },
        limits,
        nowMs,
        settings.claimTokenDays * DAY_MS,
      );
      if ('refused' in created) {
        const [status, message] = REFUSALS[created.refused];
        throw new HttpError(status, message, { 'retry-after': String(DAY_MS / 1000) });
      }
      request.log.info({ registration: created.id }, 'registration received; review it with "mowability registrations list --pending"');
      deps.onRegistered?.({ id: created.id, pending: created.pending });
      return reply.code(202).send({
        status: 'ok',
        mfi: {
          registration: {
            id: created.id,
            status: 'pending',
            claim_token: created.claimToken,
            claim_url: `${REGISTRATIONS_PATH}/${created.claimToken}`,
            expires_at: created.expiresAt,
          },
        },
        message: '',
      });
    },
  });
}

/** GET /v1/registrations/{claim_token}: the decision, and an approved key exactly once. */
function registerClaimRoute(app: FastifyInstance, deps: RegistrationOptions): void {
  const { store, clock } = deps;
  app.get<{ Params: { claim_token: string } }>(`${ROUTE}/:claim_token`, {
    config,
    schema: {
      params: {
        type: 'object',
        properties: { claim_token: { type: 'string', maxLength: 200, description: 'The claim token from the answer to POST.' } },
      },
      response: responses,
    },
    attachValidation: true,
    handler: async (request) => {
      if (deps.access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      const token = request.params.claim_token;
      if (request.validationError || typeof token !== 'string' || token.length > 200)
        throw new HttpError(404, REGISTRATION_MESSAGES.unknownClaim);
      const result = await store.claim(token, clock.now());
      switch (result.status) {
        case 'unknown':
          throw new HttpError(404, REGISTRATION_MESSAGES.unknownClaim);
        case 'pending':
          return { status: 'ok', mfi: { registration: { status: 'pending', expires_at: result.expiresAt } }, message: '' };
        case 'rejected':
          return { status: 'ok', mfi: { registration: { status: 'rejected', reason: result.reason } }, message: '' };
        case 'approved':
          request.log.info({ key: result.keyId }, 'approved key claimed');
          return { status: 'ok', mfi: { registration: { status: 'approved', api_key: result.key } }, message: '' };
        case 'claimed':
          return { status: 'ok', mfi: { registration: { status: 'claimed' } }, message: '' };
      }
    },
  });
}

/**
 * registration.notifyCommand: runs the operator's program when a registration
 * arrives, so no mail server is needed. No shell (the setting is one program
 * path), a small environment with the registration's number and the pending
 * count only — never the registrant's data —, a timeout, and failures logged.
 */
const NOTIFY_TIMEOUT_MS = 10_000;

export function registrationNotifier(
  command: string,
  logger: Logger,
): ((registration: { id: number; pending: number }) => void) | undefined {
  if (command === '') return undefined;
  const log = logger.child({ module: 'registration-notify' });
  return ({ id, pending }) => {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      MOWABILITY_REGISTRATION_ID: String(id),
      MOWABILITY_REGISTRATION_PENDING: String(pending),
    };
    execFile(command, [], { env, timeout: NOTIFY_TIMEOUT_MS, windowsHide: true }, (err) => {
      if (err) log.warn({ err, command, registration: id }, 'registration.notifyCommand failed');
    });
  };
}
