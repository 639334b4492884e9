/**
 * Which redirects of the forecast provider are followed. forecast.openMeteoUrl names the server
 * the operator trusts; a redirect to another host (a compromised or misconfigured server, a
 * captive portal) would make the daemon use weather from a server nobody chose, and a forecast
 * decides whether a mower leaves its dock. So only redirects on the same host are followed (a
 * path moved, or http upgraded to https); any other is refused with a reason the provider's
 * status shows, pointing at the setting to correct. Pure.
 */

/** Enough for a moved path plus a scheme upgrade; more is a loop. */
export const MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type RedirectDecision = { url: string } | { refused: string };

/**
 * undefined when `status` is no redirect (the answer is used as it is); otherwise the URL to fetch
 * next, or why the redirect is refused.
 */
export function redirectTarget(from: string, status: number, location: string | null): RedirectDecision | undefined {
  if (!REDIRECT_STATUSES.has(status)) return undefined;
  const source = new URL(from);
  let target: URL;
  try {
    if (location === null || location === '') throw new Error('no Location');
    target = new URL(location, source);
  } catch {
    return { refused: `HTTP ${status} redirect without a usable Location; not followed` };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return { refused: `HTTP ${status} redirect to a ${target.protocol.replace(/:$/, '')} address refused` };
  }
  if (target.hostname !== source.hostname) {
    return {
      refused: `HTTP ${status} redirect to another host (${target.host}) refused; set forecast.openMeteoUrl to the server that answers`,
    };
  }
  if (source.protocol === 'https:' && target.protocol !== 'https:') {
    return { refused: `HTTP ${status} redirect from https to ${target.protocol.replace(/:$/, '')} refused` };
  }
  return { url: target.href };
}
