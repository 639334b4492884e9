/**
 * The public service's parts on the HTTP harness (test/helpers/httpApp.ts), wired as its plug
 * (src/publicService/plug.ts) wires them in the daemon: per-key usage and quotas, the
 * registration routes (which need registration.enabled too).
 */
import type { HarnessExtension } from '../helpers/httpApp.js';
import { KeyUsage } from '../../src/publicService/keyUsage.js';
import { registrationRoutes } from '../../src/publicService/plug.js';
import { RegistrationStore } from '../../src/publicService/registrationStore.js';
import type { RegistrationOptions } from '../../src/publicService/registrationRoutes.js';

export interface PublicServiceParts {
  /** Per-key usage counting and the daily quota. */
  usage?: boolean;
  /** The registration routes on the harness database, or on the store given. */
  registrations?: boolean | RegistrationOptions['store'];
}

export function publicServiceParts(options: PublicServiceParts): HarnessExtension {
  return async ({ db, access, config, logger, clock }) => {
    const usage = options.usage
      ? new KeyUsage({
          database: db,
          logger,
          timeZone: config.timezone,
          defaultDailyQuota: config.keys.dailyQuota,
          flushIntervalMs: config.keys.usageFlushSeconds * 1000,
        })
      : undefined;
    await usage?.start(clock.now());
    const store = options.registrations === true ? new RegistrationStore(db) : options.registrations || undefined;
    const publicRoutes = store ? registrationRoutes({ config, logger, clock }, { store, access }) : [];
    return {
      deps: { ...(usage ? { usage } : {}), publicRoutes },
      ...(usage ? { usage } : {}),
      stop: async () => {
        await usage?.stop();
      },
    };
  };
}
