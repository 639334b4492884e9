import { groupOf } from '../../config/docsTable.js';
import { redactConfig } from '../../config/load.js';
import { listSettings } from '../../config/schema.js';
import { stationUnitConfigs } from '../../daemon.js';
import { expectPositionals, parseCommand } from '../args.js';
import { configFor, printJson } from '../context.js';
import { EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';

const COMMAND = 'config';

type Tree = Record<string, unknown>;

/** The public service's settings (docs/configuration.md, "Public service"): what a home install leaves at their defaults. */
function publicServiceKeys(): string[] {
  return listSettings()
    .map(({ key }) => key)
    .filter((key) => groupOf(key) === 'publicService');
}

function valueAt(tree: Tree, path: readonly string[]): { found: boolean; value?: unknown } {
  let node: unknown = tree;
  for (const part of path) {
    if (typeof node !== 'object' || node === null || !(part in node)) return { found: false };
    node = (node as Tree)[part];
  }
  return { found: true, value: node };
}

/** The configuration without the given settings (an object left empty goes too). */
function without(tree: Tree, keys: readonly string[]): Tree {
  const copy = JSON.parse(JSON.stringify(tree)) as Tree;
  for (const key of keys) {
    const path = key.split('.');
    const leaf = path.pop() as string;
    const parent = valueAt(copy, path);
    if (!parent.found || typeof parent.value !== 'object' || parent.value === null) continue;
    delete (parent.value as Tree)[leaf];
    if (path.length > 0 && Object.keys(parent.value).length === 0)
      delete (valueAt(copy, path.slice(0, -1)).value as Tree)[path.at(-1) as string];
  }
  return copy;
}

/** Only the given settings, nested as in the configuration file. */
function only(tree: Tree, keys: readonly string[]): Tree {
  const picked: Tree = {};
  for (const key of keys) {
    const path = key.split('.');
    const { found, value } = valueAt(tree, path);
    if (!found) continue;
    let node = picked;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Tree;
    node[path.at(-1) as string] = value;
  }
  return picked;
}

export async function configCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { public: { type: 'boolean' }, all: { type: 'boolean' } });
  if (parsed.help) {
    const flags = listSettings()
      .filter(({ spec }) => spec.arg)
      .map(({ key, spec }) => `  --${spec.arg}`.padEnd(32) + `${key} (${spec.env ?? 'no env'})`)
      .join('\n');
    io.stdout(`${HELP.config?.replace('@SETTINGS@', flags)}\n`);
    return EXIT_OK;
  }
  expectPositionals(COMMAND, parsed.positionals, []);
  if (parsed.values.public === true && parsed.values.all === true) throw new UsageError(COMMAND, 'give --public or --all, not both');
  const config = redactConfig(configFor(parsed, io), stationUnitConfigs());
  const publicKeys = publicServiceKeys();
  if (parsed.values.all === true) printJson(io, config);
  else if (parsed.values.public === true) printJson(io, only(config, publicKeys));
  else {
    printJson(io, without(config, publicKeys));
    io.stderr(
      `${publicKeys.length} public-service settings (keys, registration, store, rate limit, proxies) are left out: see them with "mowability config --public", everything with --all.\n`,
    );
  }
  return EXIT_OK;
}
