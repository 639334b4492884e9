/**
 * Bounds on SUBSCRIBE (`broker.maxFiltersPerSubscribe`, `broker.maxSubscriptionsPerClient`),
 * checked as the packet is parsed, before aedes handles any of it. aedes authorizes the filters of
 * a packet one at a time and, for a persistent session, stores the packet's whole filter list once
 * per granted filter (one SUBSCRIBE with 20,000 filters kept the broker busy 12–15 s), so a
 * refusal per filter would come too late. A packet past a limit gets a packet type aedes does not
 * know, and aedes closes the connection on it without handling anything of it.
 */
import type { EventEmitter } from 'node:events';
import type { Client } from 'aedes';

export interface SubscribeLimits {
  maxFiltersPerSubscribe: number;
  maxSubscriptionsPerClient: number;
}

interface ParsedPacket {
  cmd: string;
  subscriptions?: Array<{ topic: string }>;
}

/** What aedes closes the connection on, unhandled (lib/handlers/index.js: the default case). */
const REFUSED_PACKET = 'refused-subscribe';

/** Why a SUBSCRIBE is refused: the limit's setting and a sentence naming it with the numbers. */
export interface SubscribeRefusal {
  setting: 'broker.maxFiltersPerSubscribe' | 'broker.maxSubscriptionsPerClient';
  message: string;
}

/**
 * Why a SUBSCRIBE with `filters` must be refused for a client already holding `held` filters,
 * else undefined. A filter held already is replaced, not added.
 */
export function subscribeRefusal(
  filters: readonly string[],
  held: ReadonlySet<string>,
  limits: SubscribeLimits,
): SubscribeRefusal | undefined {
  if (filters.length > limits.maxFiltersPerSubscribe) {
    const setting = 'broker.maxFiltersPerSubscribe';
    return { setting, message: `${filters.length} filters in one SUBSCRIBE (${setting} = ${limits.maxFiltersPerSubscribe})` };
  }
  const added = new Set(filters.filter((filter) => !held.has(filter))).size;
  if (held.size + added > limits.maxSubscriptionsPerClient) {
    const setting = 'broker.maxSubscriptionsPerClient';
    return { setting, message: `${held.size + added} subscriptions for one client (${setting} = ${limits.maxSubscriptionsPerClient})` };
  }
  return undefined;
}

/** The refusal's sentence alone (undefined: the SUBSCRIBE is within the limits). */
export function subscribeProblem(filters: readonly string[], held: ReadonlySet<string>, limits: SubscribeLimits): string | undefined {
  return subscribeRefusal(filters, held, limits)?.message;
}

/** The filters a client holds: its live subscriptions and what its persistent session keeps. */
function heldFilters(client: Client, persisted: ReadonlySet<string>): Set<string> {
  const live = (client as unknown as { subscriptions?: Record<string, unknown> }).subscriptions ?? {};
  return new Set([...Object.keys(live), ...persisted]);
}

/**
 * Checks every SUBSCRIBE of `client` before aedes sees it. `persisted` gives the filters a
 * client id's persistent session keeps; `onRefused` is told why a packet was refused.
 */
export function guardSubscribes(
  client: Client,
  limits: SubscribeLimits,
  persisted: (clientId: string) => ReadonlySet<string>,
  onRefused: (refusal: SubscribeRefusal) => void,
): void {
  // aedes parses each connection with its own mqtt-packet parser; listening first on it is the one
  // point before aedes handles a packet. Pinned aedes version: test/mqtt/subscriptionLimits.test.ts.
  const parser = (client as unknown as { _parser?: EventEmitter })._parser;
  if (!parser) throw new Error('aedes client without a packet parser: the SUBSCRIBE limits cannot be applied');
  parser.prependListener('packet', (packet: ParsedPacket) => {
    if (packet.cmd !== 'subscribe' || !Array.isArray(packet.subscriptions)) return;
    const held = heldFilters(client, typeof client.id === 'string' ? persisted(client.id) : new Set());
    const refusal = subscribeRefusal(
      packet.subscriptions.map((sub) => sub.topic),
      held,
      limits,
    );
    if (refusal === undefined) return;
    packet.cmd = REFUSED_PACKET;
    packet.subscriptions = [];
    onRefused(refusal);
  });
}
