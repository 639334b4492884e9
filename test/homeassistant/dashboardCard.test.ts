import { describe, expect, it } from 'vitest';
import { forecastEntities } from '../../src/forecast/forecastEntities.js';
import { allDiscoveryMessages } from '../../src/homeassistant/discovery.js';
import { lawnEntities } from '../../src/lawn/lawnEntities.js';
import { yamlBlocks } from '../helpers/markdownYaml.js';

/** The README's dashboard card shows what a new install has: only entities discovery enables by default. */
describe("the README's dashboard card", () => {
  const cards = yamlBlocks('README.md').filter((block) => (block.value as { type?: unknown } | null)?.type === 'entities');
  const discovered = new Map(
    allDiscoveryMessages({
      prefix: 'homeassistant',
      baseTopic: 'mowability',
      softwareVersion: '',
      stations: [{ id: 'garden', name: 'Garden' }],
      extraEntities: () => [...lawnEntities(), ...forecastEntities()],
    }).map((message) => [String(message.payload.default_entity_id), message.payload]),
  );

  it('lists only discovered entities that are enabled by default', () => {
    expect(cards).toHaveLength(1);
    const ids = (cards[0]!.value as { entities: Array<string | { entity: string }> }).entities.map((row) =>
      typeof row === 'string' ? row : row.entity,
    );
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) {
      expect(discovered.has(id), `${id} is a discovered entity`).toBe(true);
      expect(discovered.get(id)!.enabled_by_default, `${id} is enabled by default`).not.toBe(false);
    }
  });
});
