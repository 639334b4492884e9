/**
 * Home Assistant MQTT discovery configs: one device per station plus the
 * bridge device (the daemon). Pure: the service publishes them retained (qos 1)
 * on every connect and when HA announces itself on its status topic. Every id
 * is derived here once; the broker's owned-topic filters, the stale-config
 * sweep and the id-collision check all use `allDiscoveryMessages`.
 */
import { bridgeEntities, BRIDGE_STATE_TOPIC } from './bridgeEntities.js';
import { stationEntities, type EntitySpec } from './stationEntities.js';
import { timestampAvailability } from './timestampSensors.js';

/*
 * Home Assistant ids derived from our station ids. HA entity ids must match
 * `^[a-z0-9_]+\.[a-z0-9_]+$` (homeassistant/core/valid_entity_id), while station ids may hold
 * upper case and "-". Unique ids and discovery topics keep the station id as it is (HA's
 * discovery topic allows `[a-zA-Z0-9_-]`, and changing unique ids would orphan existing
 * entities); only the suggested entity id (`default_entity_id` / `object_id`) is lowered.
 */
/** The entity-id part a station contributes: lower case, every character outside `[a-z0-9_]` as "_". */
export function entitySlug(stationId: string): string {
  return stationId.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/** `[a-zA-Z0-9_-]` only, for unique ids and discovery object ids. */
export function safeId(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** Home Assistant's entity-id rule (component "." object id). */
export const HA_ENTITY_ID_PATTERN = /^[a-z0-9_]+\.[a-z0-9_]+$/;

/** What owns one discovery entity: a station id, or undefined for the bridge device. */
export interface OwnedEntity {
  owner: string | undefined;
  uniqueId: string;
  entityId: string;
}

/**
 * Config problems when two owners would share an entity id or unique id (e.g. stations
 * "Back-Yard" and "back_yard" both give `sensor.mowability_back_yard_index`). We refuse the
 * configuration rather than add a suffix: a suffix would depend on the order of the stations, so
 * reordering the file would silently swap the two stations' entities in Home Assistant.
 */
export function entityIdCollisions(entities: readonly OwnedEntity[]): string[] {
  // One problem per pair of owners, naming the first id they share.
  const problems = new Map<string, string>();
  for (const key of ['entityId', 'uniqueId'] as const) {
    const firstOwner = new Map<string, string | undefined>();
    for (const entity of entities) {
      const id = entity[key];
      if (!firstOwner.has(id)) {
        firstOwner.set(id, entity.owner);
        continue;
      }
      const other = firstOwner.get(id);
      if (other === entity.owner) continue;
      const names = [other, entity.owner].map((owner) => (owner === undefined ? 'the bridge device' : `station "${owner}"`));
      const pair = names.join(' and ');
      if (problems.has(pair)) continue;
      problems.set(
        pair,
        `${pair} would both get the Home Assistant entity ${key === 'entityId' ? 'id' : 'unique id'} "${id}" ` +
          '(entity ids are lower-cased and "-" becomes "_"): change one of the "stations[].id" values',
      );
    }
  }
  return [...problems.values()];
}

export { LIMITING_CHECK_OPTIONS, MAIN_STATUS_OPTIONS } from './stationEntities.js';

export interface DiscoveryInput {
  prefix: string;
  baseTopic: string;
  softwareVersion: string;
  stationId: string;
  stationName: string;
  /** Sent as `origin.support_url` when not empty. */
  supportUrl?: string;
  /** The status page: `device.configuration_url` when not empty (homeassistant.configurationUrl). */
  configurationUrl?: string;
  /** Entities station units add (src/station/unit.ts), after the built-in ones. */
  extraEntities?: readonly EntitySpec[];
}

export interface DiscoveryMessage {
  topic: string;
  payload: Record<string, unknown>;
  /** The station this entity belongs to; undefined for the bridge device. */
  owner?: string;
}

interface Common {
  prefix: string;
  /** `<safe base>_<owner>`: unique ids and discovery topics (kept as before, so HA keeps its entities). */
  idPrefix: string;
  /** `mowability_<lower-case owner>`: the suggested entity ids. */
  entityPrefix: string;
  shared: Record<string, unknown>;
  owner?: string;
}

function message(common: Common, spec: EntitySpec, extra: Record<string, unknown> = {}): DiscoveryMessage {
  const uniqueId = `${common.idPrefix}_${spec.key}`;
  const objectId = `${common.entityPrefix}_${spec.key}`;
  const payload: Record<string, unknown> = {
    ...spec.config,
    unique_id: uniqueId,
    object_id: objectId,
    default_entity_id: `${spec.component}.${objectId}`,
    ...common.shared,
    ...extra,
  };
  const own = withOwnStateTopic(payload, spec);
  return {
    topic: `${common.prefix}/${spec.component}/${uniqueId}/config`,
    owner: common.owner,
    payload: timestampAvailability(own, typeof own.state_topic === 'string' ? own.state_topic : undefined),
  };
}

/** An entity that names its own `state_topic` keeps it (an event's topic); `null` leaves it out (a button has none). */
function withOwnStateTopic(payload: Record<string, unknown>, spec: EntitySpec): Record<string, unknown> {
  if (!Object.hasOwn(spec.config, 'state_topic')) return payload;
  const { state_topic: _shared, ...rest } = payload;
  return spec.config.state_topic === null ? rest : { ...rest, state_topic: spec.config.state_topic };
}

function origin(version: string, supportUrl: string): Record<string, unknown> {
  return { name: 'mowability', sw_version: version, ...(supportUrl === '' ? {} : { support_url: supportUrl }) };
}

/** `configuration_url` for a device: the status page, or a station's page under it. */
function configurationUrl(base: string | undefined, page: string): Record<string, string> {
  if (!base) return {};
  return { configuration_url: new URL(page, base.endsWith('/') ? base : `${base}/`).toString() };
}

function bridgeIdentifier(baseTopic: string): string {
  return `${discoveryDeviceIdPrefix(baseTopic)}bridge`;
}

/** How every unique id of this daemon's entities begins (`<base>_<station>_<key>`). */
export function discoveryUniqueIdPrefix(baseTopic: string): string {
  return `${safeId(baseTopic)}_`;
}

/** How every device identifier of this daemon begins (`mowability_<base>_<station>`). */
export function discoveryDeviceIdPrefix(baseTopic: string): string {
  return `mowability_${discoveryUniqueIdPrefix(baseTopic)}`;
}

/** Every discovery message of one station, in a stable order. */
export function discoveryMessages(input: DiscoveryInput): DiscoveryMessage[] {
  const base = input.baseTopic;
  const station = input.stationId;
  const stateTopic = `${base}/${station}/state`;
  const idPrefix = `${discoveryUniqueIdPrefix(base)}${station}`;
  const shared = {
    state_topic: stateTopic,
    availability: [{ topic: `${base}/${BRIDGE_STATE_TOPIC}` }, { topic: `${base}/${station}/availability` }],
    availability_mode: 'all',
    device: {
      identifiers: [`${discoveryDeviceIdPrefix(base)}${station}`],
      name: `Mowability ${input.stationName}`,
      manufacturer: 'mowability',
      model: 'Mowability Index',
      sw_version: input.softwareVersion,
      via_device: bridgeIdentifier(base),
      ...configurationUrl(input.configurationUrl, `stations/${encodeURIComponent(station)}`),
    },
    origin: origin(input.softwareVersion, input.supportUrl ?? ''),
  };
  const common: Common = { prefix: input.prefix, idPrefix, entityPrefix: `mowability_${entitySlug(station)}`, shared, owner: station };
  return [...stationEntities(stateTopic), ...(input.extraEntities ?? [])].map((spec) => message(common, spec));
}

/** The bridge device's discovery messages. */
export function bridgeDiscoveryMessages(input: {
  prefix: string;
  baseTopic: string;
  softwareVersion: string;
  supportUrl?: string;
  configurationUrl?: string;
}): DiscoveryMessage[] {
  const base = input.baseTopic;
  const shared = {
    device: {
      identifiers: [bridgeIdentifier(base)],
      name: 'Mowability bridge',
      manufacturer: 'mowability',
      model: 'Mowability daemon',
      sw_version: input.softwareVersion,
      ...configurationUrl(input.configurationUrl, ''),
    },
    origin: origin(input.softwareVersion, input.supportUrl ?? ''),
  };
  const common: Common = {
    prefix: input.prefix,
    idPrefix: `${discoveryUniqueIdPrefix(base)}bridge`,
    entityPrefix: 'mowability_bridge',
    shared,
  };
  return bridgeEntities(base).map(({ alwaysAvailable, ...spec }) =>
    message(common, spec, alwaysAvailable ? {} : { availability: [{ topic: `${base}/${BRIDGE_STATE_TOPIC}` }] }),
  );
}

export interface AllDiscoveryInput {
  prefix: string;
  baseTopic: string;
  softwareVersion: string;
  supportUrl?: string;
  configurationUrl?: string;
  stations: ReadonlyArray<{ id: string; name: string }>;
  /** The entities station units add for a station. */
  extraEntities?: ExtraEntities;
}

/** Entities station units add, per station id. */
export type ExtraEntities = (stationId: string) => readonly EntitySpec[];

/** The bridge's and every station's discovery messages. */
export function allDiscoveryMessages(input: AllDiscoveryInput): DiscoveryMessage[] {
  return [
    ...bridgeDiscoveryMessages(input),
    ...input.stations.flatMap((station) =>
      discoveryMessages({ ...input, stationId: station.id, stationName: station.name, extraEntities: input.extraEntities?.(station.id) }),
    ),
  ];
}

/** Config problems when two stations (or a station and the bridge) would share a Home Assistant id. */
export function discoveryIdProblems(prefix: string, baseTopic: string, stations: ReadonlyArray<{ id: string; name: string }>): string[] {
  const entities = allDiscoveryMessages({ prefix, baseTopic, softwareVersion: '', stations }).map((entry) => ({
    owner: entry.owner,
    uniqueId: String(entry.payload.unique_id),
    entityId: String(entry.payload.default_entity_id),
  }));
  return entityIdCollisions(entities);
}

/** True for a retained discovery config published by a daemon with this base topic. */
export function isOurDiscoveryConfig(payload: string, baseTopic: string): boolean {
  try {
    const config = JSON.parse(payload) as { origin?: { name?: unknown }; availability?: Array<{ topic?: unknown }>; state_topic?: unknown };
    if (config.origin?.name !== 'mowability') return false;
    const bridgeState = `${baseTopic}/${BRIDGE_STATE_TOPIC}`;
    // The bridge's connection entity has no availability; its state topic is the bridge state itself.
    return (Array.isArray(config.availability) && config.availability[0]?.topic === bridgeState) || config.state_topic === bridgeState;
  } catch {
    return false;
  }
}

/**
 * Topic filters of our discovery configs for these stations: `<prefix>/+/<object id>/#` for every
 * object id `allDiscoveryMessages` uses (the level after the component), so the embedded broker can
 * keep other clients off them. Derived from the messages themselves, so the two never drift apart.
 */
export function discoveryTopicFilters(
  prefix: string,
  baseTopic: string,
  stations: ReadonlyArray<{ id: string; name: string }>,
  extraEntities?: ExtraEntities,
): string[] {
  const filters = new Set<string>();
  for (const entry of allDiscoveryMessages({ prefix, baseTopic, softwareVersion: '', stations, extraEntities })) {
    const objectId = entry.topic.slice(prefix.length + 1).split('/')[1];
    filters.add(`${prefix}/+/${objectId}/#`);
  }
  return [...filters];
}

/** The object ids of our suggested entity ids (`object_id`), for the broker's claim check (./discoveryClaims.ts). */
export function discoveryEntityObjectIds(
  prefix: string,
  baseTopic: string,
  stations: ReadonlyArray<{ id: string; name: string }>,
  extraEntities?: ExtraEntities,
): Set<string> {
  return new Set(
    allDiscoveryMessages({ prefix, baseTopic, softwareVersion: '', stations, extraEntities }).map((entry) =>
      String(entry.payload.object_id),
    ),
  );
}
