/**
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
