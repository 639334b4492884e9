import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, type ScalarTag } from 'yaml';
import { REPO_ROOT } from '../helpers/markdownYaml.js';

/**
 * The automation blueprints under blueprints/automation/mowability/, read as Home Assistant reads
 * them (https://www.home-assistant.io/docs/blueprint/schema/ and /docs/blueprint/selectors/):
 * `!input <name>` is a custom tag, every input is used, every entity the automation acts on or
 * watches comes from an input with an entity selector, and the automation uses the syntax
 * Home Assistant 2024.1 loads (`trigger:`/`platform:`, `condition:`, `action:` with `service:`).
 */
class Input {
  constructor(readonly name: string) {}
}
const inputTag: ScalarTag = { tag: '!input', resolve: (name: string) => new Input(name) };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Input);

const DIR = join(REPO_ROOT, 'blueprints', 'automation', 'mowability');
const FILES = ['mow_when_mowable.yaml', 'good_day_to_mow.yaml'];
const load = (file: string) => parse(readFileSync(join(DIR, file), 'utf8'), { customTags: [inputTag] }) as Json;

/** Every value of `key` anywhere under `value`, with its path. */
function valuesOf(value: unknown, key: string, path = ''): Array<{ path: string; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((item, i) => valuesOf(item, key, `${path}[${i}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, child]) => [
    ...(k === key ? [{ path: `${path}.${k}`, value: child }] : []),
    ...valuesOf(child, key, `${path}.${k}`),
  ]);
}

function inputsUsed(value: unknown): string[] {
  if (value instanceof Input) return [value.name];
  if (Array.isArray(value)) return value.flatMap(inputsUsed);
  if (isObject(value)) return Object.values(value).flatMap(inputsUsed);
  return [];
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (isObject(value)) return Object.values(value).flatMap(strings);
  return [];
}

const SELECTORS = ['entity', 'number', 'time', 'text', 'boolean', 'duration', 'select', 'target', 'device'];

describe.each(FILES)('blueprint %s', (file) => {
  const document = load(file);
  const blueprint = document.blueprint as Json;
  const inputs = blueprint.input as Record<string, { name?: unknown; selector?: Json; default?: unknown }>;
  const { blueprint: _metadata, ...automation } = document;

  it('has the keys Home Assistant requires and a selector on every input', () => {
    expect(blueprint).toMatchObject({ name: expect.any(String), domain: 'automation', description: expect.any(String) });
    expect((blueprint.homeassistant as Json).min_version).toBe('2024.1.0');
    expect(Object.keys(inputs).length).toBeGreaterThan(2);
    for (const [name, input] of Object.entries(inputs)) {
      expect(typeof input.name, name).toBe('string');
      const kinds = Object.keys(input.selector ?? {});
      expect(kinds, name).toHaveLength(1);
      expect(SELECTORS, name).toContain(kinds[0]);
    }
    for (const key of ['trigger', 'action', 'mode']) expect(automation, key).toHaveProperty(key);
  });

  it('uses every input, and only declared ones', () => {
    const used = new Set(inputsUsed(automation));
    expect([...used].sort()).toEqual(Object.keys(inputs).sort());
  });

  it('takes every entity from an input with an entity selector, in templates too', () => {
    const entityInputs = new Set(
      Object.entries(inputs)
        .filter(([, input]) => input.selector?.entity !== undefined)
        .map(([name]) => name),
    );
    const references = valuesOf(automation, 'entity_id');
    expect(references.length).toBeGreaterThan(0);
    for (const { path, value } of references) {
      expect(value, path).toBeInstanceOf(Input);
      expect(entityInputs, path).toContain((value as Input).name);
    }
    // Variables that templates read entities through come from entity inputs as well.
    for (const [name, value] of Object.entries((automation.variables as Json | undefined) ?? {})) expect(value, name).toBeInstanceOf(Input);
    // No entity id written into a template.
    for (const template of strings(automation).filter((text) => text.includes('{{')))
      expect(template).not.toMatch(/\b(binary_sensor|sensor|lawn_mower)\.[a-z0-9_]+/);
  });

  it('loads in Home Assistant 2024.1: trigger/platform, condition, action/service', () => {
    for (const key of ['triggers', 'conditions', 'actions']) expect(valuesOf(automation, key), key).toEqual([]);
    for (const trigger of automation.trigger as Json[]) {
      expect(typeof trigger.platform).toBe('string');
      expect(trigger).not.toHaveProperty('trigger');
    }
    for (const { path, value } of valuesOf(automation, 'action')) expect(Array.isArray(value), path).toBe(true);
    expect(valuesOf(automation, 'service').length).toBeGreaterThan(0);
  });
});

describe('the mow blueprint', () => {
  it('asks for the mower, the mowable sensor, the window sensor, the minimum run, the allowed hours and an optional notify service', () => {
    const inputs = (load('mow_when_mowable.yaml').blueprint as Json).input as Record<string, { selector: Json; default?: unknown }>;
    expect(inputs.mower!.selector).toEqual({ entity: { domain: 'lawn_mower' } });
    expect(inputs.mowable_sensor!.selector.entity).toMatchObject({ domain: 'binary_sensor' });
    expect(inputs.window_sensor!.selector.entity).toMatchObject({ domain: 'sensor' });
    expect(inputs.min_run_minutes!.selector.number).toMatchObject({ unit_of_measurement: 'min' });
    expect(Object.keys(inputs.start_after!.selector)).toEqual(['time']);
    expect(Object.keys(inputs.start_before!.selector)).toEqual(['time']);
    expect(inputs.notify_service!.default).toBe('');
  });
});
