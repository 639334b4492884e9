/**
 * Whether a discovery config of another client claims one of our entities. Home Assistant
 * expands abbreviated keys before it reads a config, and when a config holds both spellings of
 * a key the abbreviated value replaces the full one (homeassistant/components/mqtt/discovery.py,
 * `_replace_abbreviations`; the list of abbreviations is its abbreviations.py and
 * https://www.home-assistant.io/integrations/mqtt/#supported-abbreviations-in-mqtt-discovery-messages).
 * A check that reads only one spelling can therefore be fooled; this one reads every spelling,
 * at the top level, in the device and in each component of a device-based config, and counts a
 * claim in any of them.
 */

/** Our discovery identity on the broker: `homeassistant.prefix` and how our ids begin (from ./discovery.ts). */
export interface DiscoveryIdentity {
  prefix: string;
  uniqueIdPrefix: string;
  deviceIdPrefix: string;
  /** The object ids of our entity ids (`mowability_garden_mowable` of `binary_sensor.mowability_garden_mowable`). */
  entityObjectIds?: ReadonlySet<string>;
}

/** Each key Home Assistant reads, under its full name and its abbreviation. */
const UNIQUE_ID = ['unique_id', 'uniq_id'];
const OBJECT_ID = ['object_id', 'obj_id'];
const DEFAULT_ENTITY_ID = ['default_entity_id', 'def_ent_id'];
const DEVICE = ['device', 'dev'];
const IDENTIFIERS = ['identifiers', 'ids'];
const COMPONENTS = ['components', 'cmps'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The values of every spelling of one key present in `config`. */
function spellings(config: Json, names: readonly string[]): unknown[] {
  return names.filter((name) => Object.hasOwn(config, name)).map((name) => config[name]);
}

function startsWith(value: unknown, prefix: string): boolean {
  return typeof value === 'string' && value.toLowerCase().startsWith(prefix);
}

/** An object id as Home Assistant makes it part of an entity id (lower case, other characters as one "_"). */
export function entityObjectSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

interface Claim {
  uniqueIdPrefix: string;
  deviceIdPrefix: string;
  objectIds: ReadonlySet<string>;
}

function takesOurEntityId(claim: Claim, config: Json): boolean {
  if (claim.objectIds.size === 0) return false;
  const objectIds = spellings(config, OBJECT_ID);
  // default_entity_id is "<domain>.<object id>".
  for (const entityId of spellings(config, DEFAULT_ENTITY_ID))
    if (typeof entityId === 'string') objectIds.push(entityId.slice(entityId.indexOf('.') + 1));
  return objectIds.some((id) => typeof id === 'string' && claim.objectIds.has(entityObjectSlug(id)));
}

function namesOurDevice(claim: Claim, config: Json): boolean {
  return spellings(config, DEVICE).some(
    (device) =>
      isObject(device) &&
      spellings(device, IDENTIFIERS).some((ids) => (Array.isArray(ids) ? ids : [ids]).some((id) => startsWith(id, claim.deviceIdPrefix))),
  );
}

/** Whether one entity config (or a device config) names our unique ids, our entity ids or our device. */
function claimsUs(claim: Claim, config: Json): boolean {
  return (
    spellings(config, UNIQUE_ID).some((id) => startsWith(id, claim.uniqueIdPrefix)) ||
    takesOurEntityId(claim, config) ||
    namesOurDevice(claim, config)
  );
}

/**
 * Whether a discovery payload claims one of our entities or our device. Home Assistant keeps the
 * first config it sees for a unique id, gives an entity id to whoever asks first and merges configs
 * by device identifier, whatever the topic, so the topic alone cannot protect them. Only a JSON
 * object can be a config; anything else claims nothing.
 */
export function claimsOurDiscovery(payload: Buffer | string, identity: DiscoveryIdentity): boolean {
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  if (!/^\s*\{/.test(text)) return false;
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObject(config)) return false;
  const claim: Claim = {
    uniqueIdPrefix: identity.uniqueIdPrefix.toLowerCase(),
    deviceIdPrefix: identity.deviceIdPrefix.toLowerCase(),
    objectIds: new Set([...(identity.entityObjectIds ?? [])].map(entityObjectSlug)),
  };
  if (claimsUs(claim, config)) return true;
  return spellings(config, COMPONENTS).some(
    (components) =>
      isObject(components) && Object.values(components).some((component) => isObject(component) && claimsUs(claim, component)),
  );
}
