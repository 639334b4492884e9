import { describe, expect, it } from 'vitest';
import { userDocs, yamlBlocks, type YamlBlock } from '../helpers/markdownYaml.js';

/**
 * Every automation the docs give loads in Home Assistant 2024.1 (the oldest version we support):
 * 2024.10 introduced `triggers:`, `conditions:`, `actions:`, `trigger: <platform>` and
 * `action: <service>`; 2024.1 reads only `trigger:` with `platform:`, `condition:` and `action:`
 * with `service:` (https://www.home-assistant.io/docs/automation/yaml/), which current releases
 * still accept.
 */
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function isAutomation(value: unknown): value is Json {
  return isObject(value) && ['trigger', 'triggers'].some((key) => key in value) && ['action', 'actions'].some((key) => key in value);
}

/** Keys and steps of the 2024.10 syntax anywhere in one automation. */
function newSyntax(value: unknown, path: string, problems: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => newSyntax(item, `${path}[${i}]`, problems));
    return;
  }
  if (!isObject(value)) return;
  for (const key of ['triggers', 'conditions', 'actions'])
    if (key in value) problems.push(`${path}.${key} (2024.10+; use ${key.slice(0, -1)}:)`);
  if (typeof value.action === 'string') problems.push(`${path}.action: ${value.action} (2024.10+; use service:)`);
  for (const [key, child] of Object.entries(value)) newSyntax(child, `${path}.${key}`, problems);
}

function automationProblems(automation: Json, where: string): string[] {
  const problems: string[] = [];
  newSyntax(automation, where, problems);
  const triggers = automation.trigger;
  for (const trigger of Array.isArray(triggers) ? triggers : [triggers]) {
    if (!isObject(trigger) || typeof trigger.platform !== 'string')
      problems.push(`${where}: a trigger without platform: ${JSON.stringify(trigger)}`);
    else if ('trigger' in trigger) problems.push(`${where}: trigger: ${String(trigger.trigger)} as a platform (2024.10+)`);
  }
  if (!Array.isArray(automation.action)) problems.push(`${where}: action is not a list of steps`);
  if (JSON.stringify(automation).includes('lawn_mower.robot')) problems.push(`${where}: the placeholder lawn_mower.robot`);
  return problems;
}

function automations(block: YamlBlock): Json[] {
  const items = Array.isArray(block.value) ? block.value : [block.value];
  return items.filter(isAutomation);
}

describe('the automations in README.md and docs/', () => {
  const blocks = userDocs().flatMap(yamlBlocks);

  it('are found (README, the mower, the forecast and the irrigation automations)', () => {
    const found = blocks.flatMap((block) => automations(block).map((automation) => `${block.file}: ${String(automation.alias)}`));
    expect(found).toEqual(
      expect.arrayContaining([
        'README.md: Mow when the lawn is mowable',
        'README.md: Dock the mower when the lawn stops being mowable',
        'docs/mqtt.md: Mow when the lawn is mowable',
        'docs/mqtt.md: Publish the hourly forecast to mowability',
        'docs/mqtt.md: Report the garden sprinkler to mowability',
      ]),
    );
  });

  it('use only the syntax Home Assistant 2024.1 loads', () => {
    const problems = blocks.flatMap((block) =>
      automations(block).flatMap((automation) =>
        automationProblems(automation, `${block.file}:${block.line} "${String(automation.alias)}"`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('the check refuses the 2024.10 spelling', () => {
    const modern = { alias: 'x', triggers: [{ trigger: 'state', entity_id: 'a.b' }], actions: [{ action: 'lawn_mower.dock' }] };
    expect(automationProblems(modern, 'modern')).toHaveLength(5);
    const mixed = { alias: 'x', trigger: [{ platform: 'state' }], action: [{ choose: [{ sequence: [{ action: 'notify.me' }] }] }] };
    expect(automationProblems(mixed, 'mixed')).toEqual([expect.stringContaining('action: notify.me')]);
  });
});
