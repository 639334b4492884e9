/**
 * POST /v1/registrations (ask for a key) and GET /v1/registrations/{claim_token}
 * (learn the decision; the key exactly once). Registered only when
 * registration.enabled is on. A registration never creates a key by itself:
 * the operator approves it with `mowability registrations approve`.
 */
import type { Redis } from 'ioredis';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistrationLimits, RegistrationStore } from '../store/registrationStore.js';
import type { Clock } from '../util/clock.js';
import type { AccessView } from './auth.js';
import { CLIENT_PREFIX, NETWORK_PREFIX, prefixKey } from './clientAddress.js';
import { HttpError, MESSAGES } from './errors.js';
import { REGISTRATIONS_PATH } from './paths.js';
import { registrationBodySchema, registrationFields } from './registrationFields.js';
import { envelope, errorEnvelopeSchema } from './schemas.js';
import { WindowCounter } from './windowCounter.js';
import { RedisWindowCounter, type WindowCounting } from '../store/redisWindows.js';

export const REGISTRATION_MESSAGES = {
  tooManyAttempts: 'Too many registration attempts from this address. Retry after the time given in the Retry-After header.',
  tooManyPending: 'Too many pending registrations from this address. Wait for the review of the earlier ones.',
  tooManyPendingFromNetwork: 'Too many pending registrations from this network. Wait for the review of the earlier ones.',
  paused: 'Registration is paused until pending registrations have been reviewed. Retry later.',
  unknownClaim: 'Unknown or expired claim token.',
} as const;

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

export interface RegistrationRouteDeps {
  store: Pick<RegistrationStore, 'createWithinLimits' | 'claim'>;
  settings: RegistrationSettings;
  access: Pick<AccessView, 'maintenance'>;
  clock: Clock;
  clientAddressOf: (request: FastifyRequest) => string;
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
        claim_token: { type: 'string', description: 'Only in the answer to POST: keep it; it is shown once and is the only way to collect the key.' },
        claim_url: { type: 'string', description: 'Only in the answer to POST: the path to GET for the decision.' },
        expires_at: { type: 'string', description: 'When the claim token stops working (ISO 8601).' },
        reason: { type: ['string', 'null'], description: 'Only when rejected: the operator\'s reason, if given.' },
        api_key: { type: 'string', description: 'Only in the first answer after approval: your API key. It is never shown again.' },
      },
    },
  },
} as const;

const responses = { 200: envelope(registrationSchema), 202: envelope(registrationSchema), '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema } as const;

export function registerRegistrationRoutes(app: FastifyInstance, deps: RegistrationRouteDeps): void {
  registerCreateRoute(app, deps);
  registerClaimRoute(app, deps);
}

/** POST /v1/registrations: rate-limited per client (/64 or /32), capped per client, network and in all while reviews are pending. */
function registerCreateRoute(app: FastifyInstance, deps: RegistrationRouteDeps): void {
  const { store, settings, clock } = deps;
  const local = new WindowCounter(HOUR_MS);
  const attempts: WindowCounting = deps.redis ? new RedisWindowCounter({ redis: deps.redis, windowMs: HOUR_MS, prefix: 'mowability-registration-attempts-', fallback: local }) : local;
  const limits = pendingLimits(settings);

  app.post(REGISTRATIONS_PATH, {
    // Declared for /openapi.json; validated by registrationFields for messages that name the field.
    schema: { body: registrationBodySchema, response: responses },
    attachValidation: true,
    handler: async (request, reply) => {
      if (deps.access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      const nowMs = clock.now();
      const address = deps.clientAddressOf(request);
      const attempt = await attempts.hit(prefixKey(address, CLIENT_PREFIX), nowMs);
      if (attempt.count > settings.perAddressPerHour) {
        throw new HttpError(429, REGISTRATION_MESSAGES.tooManyAttempts, { 'retry-after': String(attempt.retryAfterSeconds) });
      }
      const parsed = registrationFields(request.body);
      if (!parsed.ok) throw new HttpError(400, parsed.message);
      const created = await store.createWithinLimits({ ...parsed.fields, clientAddress: address }, limits, nowMs, settings.claimTokenDays * DAY_MS);
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
function registerClaimRoute(app: FastifyInstance, deps: RegistrationRouteDeps): void {
  const { store, clock } = deps;
  app.get<{ Params: { claim_token: string } }>(`${REGISTRATIONS_PATH}/:claim_token`, {
    schema: {
      params: { type: 'object', properties: { claim_token: { type: 'string', maxLength: 200, description: 'The claim token from the answer to POST.' } } },
      response: responses,
    },
    attachValidation: true,
    handler: async (request) => {
      if (deps.access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      const token = request.params.claim_token;
      if (request.validationError || typeof token !== 'string' || token.length > 200) throw new HttpError(404, REGISTRATION_MESSAGES.unknownClaim);
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
