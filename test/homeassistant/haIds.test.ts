import { describe, expect, it } from 'vitest';
import { entityIdCollisions, entitySlug, HA_ENTITY_ID_PATTERN } from '../../src/homeassistant/haIds.js';

describe('Home Assistant ids from station ids', () => {
  it('lower-cases station ids and turns "-" into "_"', () => {
    expect(entitySlug('Back-Yard')).toBe('back_yard');
    expect(entitySlug('garden')).toBe('garden');
    expect(entitySlug('WH65B_2')).toBe('wh65b_2');
    expect(HA_ENTITY_ID_PATTERN.test(`sensor.mowability_${entitySlug('A-b-C_9')}_index`)).toBe(true);
  });

  it('names both owners when two would share an entity id or unique id', () => {
    const problems = entityIdCollisions([
      { owner: 'Back-Yard', uniqueId: 'm_Back-Yard_index', entityId: 'sensor.mowability_back_yard_index' },
      { owner: 'Back-Yard', uniqueId: 'm_Back-Yard_status', entityId: 'sensor.mowability_back_yard_status' },
      { owner: 'back_yard', uniqueId: 'm_back_yard_index', entityId: 'sensor.mowability_back_yard_index' },
      { owner: undefined, uniqueId: 'm_back_yard_status', entityId: 'sensor.x' },
      { owner: 'back_yard', uniqueId: 'm_back_yard_status', entityId: 'sensor.y' },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^station "Back-Yard" and station "back_yard" would both get the Home Assistant entity id "sensor.mowability_back_yard_index"/),
      expect.stringMatching(/^the bridge device and station "back_yard" would both get the Home Assistant entity unique id "m_back_yard_status"/),
    ]);
    expect(problems[0]).toContain('"stations[].id"');
  });

  it('finds nothing when every id is distinct', () => {
    expect(entityIdCollisions([{ owner: 'a', uniqueId: 'u1', entityId: 'sensor.a' }, { owner: 'b', uniqueId: 'u2', entityId: 'sensor.b' }])).toEqual([]);
  });
});
