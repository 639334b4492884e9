/**
 * Reads a configuration file and checks its shape against the schema before convict sees it.
 * Convict merges a file into the defaults key by key, so an object where the schema has a list
 * (`"stations": {}`, `"broker": {"users": {...}}`) left the default empty list in place: no
 * stations, and an embedded broker without accounts, i.e. anonymous. A top-level array or a list
 * where a group of settings belongs came out as odd "unknown key" lines. Each such case is named
 * here with the key and the shape expected; values are never echoed (some are secrets).
 */
import { readFileSync } from 'node:fs';
import { isSettingSpec, listSettings } from './schema.js';

export type ConfigFileContent = { ok: true; value: unknown } | { ok: false; problem: string };

/** Parses the file; only a JSON syntax error is called "not valid JSON". */
export function readConfigFile(file: string): ConfigFileContent {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, problem: `configuration file "${file}" cannot be read: ${(err as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, problem: `configuration file "${file}" is not valid JSON: ${withoutSnippet((err as Error).message)}` };
  }
}

/** What kind of value a key holds, for error messages that must not echo the value itself. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * V8's JSON.parse message may quote the file around the error (`Unexpected token 'h',
 * ..."password":hunter2hun"... is not valid JSON`): that quote and the token are dropped.
 */
function withoutSnippet(message: string): string {
  return message
    .replace(/^Unexpected token '.*?', .*$/s, 'unexpected character (the file text is not shown: it may hold secrets)')
    .replace(/, ".*" is not valid JSON$/s, '');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `[{...}]` example that the setting's doc gives, if any. */
function listExample(doc: string): string {
  const example = /\[\{.*?\}\]/.exec(doc)?.[0];
  return example ? ` such as ${example}` : '';
}

function groupKeys(group: object, prefix: string): string {
  return listSettings(group)
    .map(({ key }) => `${prefix}${key}`)
    .join(', ');
}

/** One line per misplaced shape: groups must be objects, list settings must be lists. */
export function configShapeProblems(value: unknown, schema: object): string[] {
  if (!isPlainObject(value)) {
    return [`the configuration file must hold one JSON object of settings, such as {"http": {"port": 8080}}; it holds ${kindOf(value)}`];
  }
  const problems: string[] = [];
  const visit = (node: Record<string, unknown>, group: object, prefix: string): void => {
    for (const [name, child] of Object.entries(node)) {
      const spec = (group as Record<string, unknown>)[name];
      const key = `${prefix}${name}`;
      if (spec === undefined || typeof spec !== 'object' || spec === null) continue; // unknown keys: convict names them
      if (isSettingSpec(spec)) {
        if (Array.isArray(spec.default) && !Array.isArray(child)) {
          const hint = isPlainObject(child) ? ' (a single entry goes in [ ] too)' : '';
          problems.push(`"${key}" must be a list${listExample(spec.doc)}; it is ${kindOf(child)}${hint}`);
        }
      } else if (!isPlainObject(child)) {
        problems.push(`"${key}" must be an object of settings (${groupKeys(spec, `${key}.`)}); it is ${kindOf(child)}`);
      } else {
        visit(child, spec, `${key}.`);
      }
    }
  };
  visit(value, schema, '');
  return problems;
}
