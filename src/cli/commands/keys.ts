import {
  expectPositionals,
  parseCommand,
  type ParsedCommand,
  parseId,
  runSubcommand,
  type SubcommandInvocation,
  type Subcommands,
} from '../args.js';
import { printJson, withStore, withDatabase } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { assertPrintable, escapeTerminalText, formatTable } from '../terminalText.js';
import { InvalidOwnerError, ServiceStore } from '../../store/serviceStore.js';
import { keyUsageDays } from '../../store/keyUsageDays.js';
import { calendarDay } from '../../util/calendarDay.js';
import { calculationContext } from '../../config/calculationContext.js';
import { systemClock } from '../../util/clock.js';

/* `keys rotate|usage|quota|expire`: the lifecycle of a key on a public service. */
export const KEY_LIFECYCLE_SUBCOMMANDS = ['rotate', 'usage', 'quota', 'expire'] as const;
const DAY_MS = 86_400_000;
const MAX_USAGE_DAYS = 366;

const notFound = (id: number) => new CommandError(`no API key with ID ${id} (see "mowability keys list")`);

export async function keyLifecycleCommand(subcommand: string, rest: string[], parsed: ParsedCommand, io: CliIo): Promise<number> {
  const where = `keys ${subcommand}`;
  const json = parsed.values.json === true;
  switch (subcommand) {
    case 'rotate': {
      const id = parseId(where, expectPositionals(where, rest, ['ID'])[0] ?? '');
      const rotated = await withDatabase(parsed, io, (db, config) =>
        new ServiceStore(db, systemClock).rotateKey(id, config.keys.rotationGraceDays * DAY_MS),
      );
      if (!rotated) throw notFound(id);
      if (json)
        printJson(io, {
          id: rotated.id,
          owner: rotated.owner,
          key: rotated.key,
          replaces: id,
          old_key_expires_at: rotated.oldKeyExpiresAt,
        });
      else {
        io.stdout(
          `Created API key ${rotated.id} for ${escapeTerminalText(rotated.owner)}; key ${id} keeps working until ${rotated.oldKeyExpiresAt}.\n`,
        );
        io.stdout(`Key (shown only now, store it safely):\n${rotated.key}\n`);
      }
      return EXIT_OK;
    }
    case 'usage': {
      const id = parseId(where, expectPositionals(where, rest, ['ID'])[0] ?? '');
      const rawDays = parsed.values.days;
      const days = rawDays === undefined ? 30 : typeof rawDays === 'string' && /^\d+$/.test(rawDays) ? Number(rawDays) : NaN;
      if (!(days >= 1 && days <= MAX_USAGE_DAYS)) throw new UsageError(where, `--days must be a whole number from 1 to ${MAX_USAGE_DAYS}`);
      const report = await withDatabase(parsed, io, async (db, config) => {
        const key = (await new ServiceStore(db, systemClock).listKeys()).find((candidate) => candidate.id === id);
        if (!key) throw notFound(id);
        const zone = calculationContext(config, Date.now()).timeZone;
        const since = calendarDay(Date.now() - (days - 1) * DAY_MS, zone);
        return { key, rows: await keyUsageDays(db, id, since) };
      });
      const total = report.rows.reduce((sum, row) => sum + row.requests, 0);
      if (json) printJson(io, { id, last_used_at: report.key.lastUsedAt, days: report.rows, total });
      else {
        io.stdout(
          `Key ${id} (${escapeTerminalText(report.key.owner)}): ${total} requests in the last ${days} days; last used ${report.key.lastUsedAt ?? 'never'}.\n`,
        );
        if (report.rows.length > 0)
          io.stdout(
            formatTable(
              ['DAY', 'REQUESTS'],
              report.rows.map((row) => [row.day, String(row.requests)]),
            ),
          );
      }
      return EXIT_OK;
    }
    case 'quota': {
      const [idText, value] = expectPositionals(where, rest, ['ID', 'REQUESTS_PER_DAY|default']);
      const id = parseId(where, idText ?? '');
      const quota = value === 'default' ? null : /^\d+$/.test(value ?? '') ? Number(value) : NaN;
      if (quota !== null && !Number.isSafeInteger(quota))
        throw new UsageError(where, 'give a whole number of requests per day (0: unlimited) or "default" (keys.dailyQuota)');
      if (!(await withDatabase(parsed, io, (db) => new ServiceStore(db, systemClock).setKeyQuota(id, quota)))) throw notFound(id);
      io.stdout(
        quota === null
          ? `API key ${id} uses the configured quota (keys.dailyQuota).\n`
          : `API key ${id}: ${quota === 0 ? 'no daily quota' : `at most ${quota} requests per day`}.\n`,
      );
      return EXIT_OK;
    }
    case 'expire': {
      const [idText, value] = expectPositionals(where, rest, ['ID', 'DATE|never']);
      const id = parseId(where, idText ?? '');
      const at = value === 'never' ? null : Date.parse(value ?? '');
      if (at !== null && !Number.isFinite(at))
        throw new UsageError(where, 'give an ISO 8601 date or instant (e.g. 2027-01-01 or 2027-01-01T00:00:00Z) or "never"');
      const expiresAt = at === null ? null : new Date(at).toISOString();
      if (!(await withDatabase(parsed, io, (db) => new ServiceStore(db, systemClock).setKeyExpiry(id, expiresAt)))) throw notFound(id);
      io.stdout(expiresAt === null ? `API key ${id} no longer expires.\n` : `API key ${id} stops working at ${expiresAt}.\n`);
      return EXIT_OK;
    }
    default:
      throw new UsageError('keys', `unknown subcommand "${subcommand}"`);
  }
}

const COMMAND = 'keys';

/** One `keys` subcommand: its positionals after the subcommand, the parsed flags, the terminal. */
type Invocation = SubcommandInvocation;

async function addKey({ where, rest, parsed, io }: Invocation): Promise<number> {
  const [owner] = expectPositionals(where, rest, ['OWNER']);
  assertPrintable(where, 'OWNER', owner ?? '');
  if (typeof parsed.values.note === 'string') assertPrintable(where, '--note', parsed.values.note);
  const created = await withStore(
    parsed,
    io,
    (store) =>
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

const SUBCOMMANDS: Subcommands = {
  add: addKey,
  list: listKeys,
  ...Object.fromEntries(Object.keys(KEY_CHANGES).map((name) => [name, changeKey])),
  ...Object.fromEntries(
    KEY_LIFECYCLE_SUBCOMMANDS.map((name) => [name, (i: Invocation) => keyLifecycleCommand(i.subcommand, i.rest, i.parsed, i.io)]),
  ),
};

export async function keysCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, {
    'allow-get': { type: 'boolean' },
    note: { type: 'string' },
    json: { type: 'boolean' },
    days: { type: 'string' },
  });
  return runSubcommand(COMMAND, parsed, io, HELP.keys, SUBCOMMANDS);
}
