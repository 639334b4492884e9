/**
 * Convict schema for running the HTTP API as a public service: registration
 * with manual review, per-key quotas, rotation and usage counting
 * (docs/api.md "Registration", docs/deployment.md). Composed in ./schema.ts.
 */
export const publicServiceSchema = {
  registration: {
    enabled: {
      doc: 'Accept key requests at POST /v1/registrations (reviewed by hand with "mowability registrations"). Off for a home install: nobody can ask for a key.',
      format: 'boolean',
      default: false,
      env: 'MOWABILITY_REGISTRATION_ENABLED',
      arg: 'registration-enabled',
    },
    claimTokenDays: {
      doc: "Days a registration's claim token stays valid; after that the registrant must register again.",
      format: 'positive-int',
      default: 14,
      env: 'MOWABILITY_REGISTRATION_CLAIM_TOKEN_DAYS',
      arg: 'registration-claim-token-days',
    },
    maxPendingPerAddress: {
      doc: "Pending (not yet reviewed) registrations allowed from one client: one IPv4 address, or one IPv6 /64 (a household's prefix, as the rate limit counts it); more get 429. Must be below registration.maxPending.",
      format: 'positive-int',
      default: 3,
      env: 'MOWABILITY_REGISTRATION_MAX_PENDING_PER_ADDRESS',
      arg: 'registration-max-pending-per-address',
    },
    maxPendingPerNetwork: {
      doc: 'Pending registrations allowed from one network: an IPv4 /24 or an IPv6 /48 (what a provider hands one customer at most); more get 429. Must be below registration.maxPending, so one network cannot pause registration for everyone.',
      format: 'positive-int',
      default: 20,
      env: 'MOWABILITY_REGISTRATION_MAX_PENDING_PER_NETWORK',
      arg: 'registration-max-pending-per-network',
    },
    maxPending: {
      doc: 'Pending registrations allowed in all; more get 503 until the operator has reviewed some.',
      format: 'positive-int',
      default: 200,
      env: 'MOWABILITY_REGISTRATION_MAX_PENDING',
      arg: 'registration-max-pending',
    },
    perAddressPerHour: {
      doc: 'Registration attempts (valid or not) one client (an IPv4 address or an IPv6 /64) may make per hour; more get 429 with Retry-After.',
      format: 'positive-int',
      default: 5,
      env: 'MOWABILITY_REGISTRATION_PER_ADDRESS_PER_HOUR',
      arg: 'registration-per-address-per-hour',
    },
    notifyCommand: {
      doc: "Program run (without a shell) when a registration arrives, e.g. a script that sends you a message. It gets MOWABILITY_REGISTRATION_ID and MOWABILITY_REGISTRATION_PENDING in its environment, never the registrant's data. Empty: none.",
      format: String,
      default: '',
      env: 'MOWABILITY_REGISTRATION_NOTIFY_COMMAND',
      arg: 'registration-notify-command',
    },
  },
  keys: {
    dailyQuota: {
      doc: 'Calculation requests per API key and calendar day (in "timezone"); further requests get 429 until midnight. 0: no quota. A key\'s own quota ("keys quota") overrides it.',
      format: 'nat',
      default: 0,
      env: 'MOWABILITY_KEYS_DAILY_QUOTA',
      arg: 'keys-daily-quota',
    },
    rotationGraceDays: {
      doc: 'Days the old key keeps working after "keys rotate"; then it is refused as "Invalid API key.".',
      format: 'nat',
      default: 7,
      env: 'MOWABILITY_KEYS_ROTATION_GRACE_DAYS',
      arg: 'keys-rotation-grace-days',
    },
    usageFlushSeconds: {
      doc: "How often per-key request counts and last use are written to the database (counted in memory in between; written on stop too). On the daemon's SQLite file with a station history running they go into the history's commits instead, within history.flushIntervalSeconds (no commit of their own).",
      format: 'positive-int',
      default: 300,
      env: 'MOWABILITY_KEYS_USAGE_FLUSH_SECONDS',
      arg: 'keys-usage-flush-seconds',
    },
    quotaMode: {
      doc:
        'How several instances enforce keys.dailyQuota: shared (each counts in memory, flushes increments every keys.usageFlushSeconds and re-reads the shared total; ' +
        'N instances may overshoot by N × the requests of one flush interval) or exact (one atomic database update per request; no overshoot, a write per request).',
      format: ['shared', 'exact'],
      default: 'shared' as 'shared' | 'exact',
      env: 'MOWABILITY_KEYS_QUOTA_MODE',
      arg: 'keys-quota-mode',
    },
  },
};
