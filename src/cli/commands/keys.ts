import { expectPositionals, parseCommand, parseId } from '../args.js';
import { printJson, withStore } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { assertPrintable, escapeTerminalText } from '../terminalText.js';
import { InvalidOwnerError } from '../../store/serviceStore.js';
import { formatTable } from '../table.js';
import { KEY_LIFECYCLE_SUBCOMMANDS, keyLifecycleCommand } from './keyLifecycle.js';

const COMMAND = 'keys';

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
  const json = parsed.values.json === true;
  const where = `${COMMAND} ${subcommand}`;

  switch (subcommand) {
    case 'add': {
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
      if (json) printJson(io, { id: created.id, owner: created.owner, key: created.key, allow_get: created.allowGet });
      else {
        io.stdout(`Created API key ${created.id} for ${escapeTerminalText(created.owner)}${created.allowGet ? ' (GET allowed)' : ''}.\n`);
        io.stdout(`Key (shown only now, store it safely):\n${created.key}\n`);
      }
      return EXIT_OK;
    }
    case 'list': {
      expectPositionals(where, rest, []);
      const keys = await withStore(parsed, io, (store) => store.listKeys());
      if (json) {
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
    case 'disable':
    case 'enable':
    case 'allow-get':
    case 'deny-get':
    case 'remove': {
      const [idText] = expectPositionals(where, rest, ['ID']);
      const id = parseId(where, idText ?? '');
      const found = await withStore(parsed, io, (store) => {
        if (subcommand === 'disable') return store.setKeyDisabled(id, true);
        if (subcommand === 'enable') return store.setKeyDisabled(id, false);
        if (subcommand === 'allow-get') return store.setKeyAllowGet(id, true);
        if (subcommand === 'deny-get') return store.setKeyAllowGet(id, false);
        return store.removeKey(id);
      });
      if (!found) throw new CommandError(`no API key with ID ${id} (see "mowability keys list")`);
      const done: Record<string, string> = {
        disable: 'disabled',
        enable: 'enabled',
        'allow-get': 'allowed to use GET',
        'deny-get': 'restricted to POST',
        remove: 'removed',
      };
      io.stdout(`API key ${id} ${done[subcommand]}.\n`);
      return EXIT_OK;
    }
    default:
      if ((KEY_LIFECYCLE_SUBCOMMANDS as readonly string[]).includes(subcommand)) return keyLifecycleCommand(subcommand, rest, parsed, io);
      throw new UsageError(COMMAND, `unknown subcommand "${subcommand}"`);
  }
}
