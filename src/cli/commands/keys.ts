import { expectPositionals, parseCommand, parseId, type ParsedCommand } from '../args.js';
import { printJson, withStore } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { assertPrintable, escapeTerminalText } from '../terminalText.js';
import { InvalidOwnerError, type ServiceStore } from '../../store/serviceStore.js';
import { formatTable } from '../table.js';
import { KEY_LIFECYCLE_SUBCOMMANDS, keyLifecycleCommand } from './keyLifecycle.js';

const COMMAND = 'keys';

/** One `keys` subcommand: its positionals after the subcommand, the parsed flags, the terminal. */
interface Invocation {
  where: string;
  subcommand: string;
  rest: string[];
  parsed: ParsedCommand;
  io: CliIo;
}

async function addKey({ where, rest, parsed, io }: Invocation): Promise<number> {
  const [owner] = expectPositionals(where, rest, ['OWNER']);
  assertPrintable(where, 'OWNER', owner ?? '');
  if (typeof parsed.values.note === 'string') assertPrintable(where, '--note', parsed.values.note);
  const created = await withStore(parsed, io, (store) =>
    store
      .addKey(owner ?? '', {
        allowGet: parsed.values['allow-get'] === true,
        ...(typeof parsed.values.note === 'string' ? { note: parsed.values.note } : {}),
      })
      .catch((err: unknown) => {
        // A bad OWNER is the caller's usage error (exit 2), not a failure of the store.
        throw err instanceof InvalidOwnerError ? new UsageError(where, err.message) : err;
      }),
    { create: true },
  );
  if (parsed.values.json === true) printJson(io, { id: created.id, owner: created.owner, key: created.key, allow_get: created.allowGet });
  else {
    io.stdout(`Created API key ${created.id} for ${escapeTerminalText(created.owner)}${created.allowGet ? ' (GET allowed)' : ''}.\n`);
    io.stdout(`Key (shown only now, store it safely):\n${created.key}\n`);
  }
  return EXIT_OK;
}

async function listKeys({ where, rest, parsed, io }: Invocation): Promise<number> {
  expectPositionals(where, rest, []);
  const keys = await withStore(parsed, io, (store) => store.listKeys());
  if (parsed.values.json === true) {
    printJson(
      io,
      keys.map((key) => ({
        id: key.id,
        owner: key.owner,
        created_at: key.createdAt,
        disabled: key.disabled,
        allow_get: key.allowGet,
        note: key.note,
        expires_at: key.expiresAt,
        daily_quota: key.dailyQuota,
        last_used_at: key.lastUsedAt,
      })),
    );
  } else if (keys.length === 0) {
    io.stdout('No API keys. Create one with: mowability keys add <owner>\n');
  } else {
    const rows = keys.map((key) => [
      String(key.id),
      escapeTerminalText(key.owner),
      key.createdAt,
      key.disabled ? 'disabled' : 'enabled',
      key.allowGet ? 'POST+GET' : 'POST',
      key.expiresAt ?? '-',
      key.dailyQuota === null ? 'default' : String(key.dailyQuota),
      key.lastUsedAt ?? 'never',
      escapeTerminalText(key.note ?? ''),
    ]);
    io.stdout(formatTable(['ID', 'OWNER', 'CREATED', 'STATE', 'METHODS', 'EXPIRES', 'QUOTA', 'LAST USED', 'NOTE'], rows));
  }
  return EXIT_OK;
}

/** `disable`, `enable`, `allow-get`, `deny-get`, `remove`: one key by ID, and what the change did. */
const KEY_CHANGES: Record<string, { change: (store: ServiceStore, id: number) => Promise<boolean>; done: string }> = {
  disable: { change: (store, id) => store.setKeyDisabled(id, true), done: 'disabled' },
  enable: { change: (store, id) => store.setKeyDisabled(id, false), done: 'enabled' },
  'allow-get': { change: (store, id) => store.setKeyAllowGet(id, true), done: 'allowed to use GET' },
  'deny-get': { change: (store, id) => store.setKeyAllowGet(id, false), done: 'restricted to POST' },
  remove: { change: (store, id) => store.removeKey(id), done: 'removed' },
};

async function changeKey({ where, subcommand, rest, parsed, io }: Invocation): Promise<number> {
  const { change, done } = KEY_CHANGES[subcommand]!;
  const [idText] = expectPositionals(where, rest, ['ID']);
  const id = parseId(where, idText ?? '');
  const found = await withStore(parsed, io, (store) => change(store, id));
  if (!found) throw new CommandError(`no API key with ID ${id} (see "mowability keys list")`);
  io.stdout(`API key ${id} ${done}.\n`);
  return EXIT_OK;
}

const SUBCOMMANDS: Record<string, (invocation: Invocation) => Promise<number>> = {
  add: addKey,
  list: listKeys,
  ...Object.fromEntries(Object.keys(KEY_CHANGES).map((name) => [name, changeKey])),
  ...Object.fromEntries(KEY_LIFECYCLE_SUBCOMMANDS.map((name) => [name, (i: Invocation) => keyLifecycleCommand(i.subcommand, i.rest, i.parsed, i.io)])),
};

export async function keysCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, {
    'allow-get': { type: 'boolean' },
    note: { type: 'string' },
    json: { type: 'boolean' },
    days: { type: 'string' },
  });
  const [subcommand, ...rest] = parsed.positionals;
  if (parsed.help || subcommand === undefined) {
    if (!parsed.help) throw new UsageError(COMMAND, 'missing subcommand');
    io.stdout(`${HELP.keys}\n`);
    return EXIT_OK;
  }
  const run = Object.hasOwn(SUBCOMMANDS, subcommand) ? SUBCOMMANDS[subcommand] : undefined;
  if (!run) throw new UsageError(COMMAND, `unknown subcommand "${subcommand}"`);
  return run({ where: `${COMMAND} ${subcommand}`, subcommand, rest, parsed, io });
}
