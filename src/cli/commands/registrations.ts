/** `mowability registrations`: review key requests (list, approve, reject) and purge old ones. */
import { expectPositionals, parseCommand, parseId, runSubcommand, type SubcommandInvocation, type Subcommands } from '../args.js';
import { printJson, withDatabase } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { assertPrintable, escapeTerminalText, formatTable } from '../terminalText.js';
import { serviceCommands } from '../../daemon.js';
import type { RegistrationReview, RegistrationRow, ReviewOutcome } from '../../daemonStorage.js';
import type { SqlDatabase } from '../../store/sqlDatabase.js';

const COMMAND = 'registrations';
const DAY_MS = 86_400_000;

function asJson(registration: RegistrationRow): Record<string, unknown> {
  return {
    id: registration.id,
    status: registration.status,
    name: registration.name,
    email: registration.email,
    usage: registration.usageKind,
    intended_use: registration.intendedUse,
    client_address: registration.clientAddress,
    created_at: registration.createdAt,
    expires_at: registration.expiresAt,
    decided_at: registration.decidedAt,
    reason: registration.reason,
    note: registration.note,
    key_id: registration.keyId,
  };
}

function table(registrations: RegistrationRow[]): string {
  const rows = registrations.map((r) => [
    String(r.id),
    r.status,
    escapeTerminalText(r.name),
    escapeTerminalText(r.email),
    r.usageKind,
    r.createdAt.slice(0, 16).replace('T', ' '),
    escapeTerminalText(r.intendedUse.length > 60 ? `${r.intendedUse.slice(0, 57)}...` : r.intendedUse),
  ]);
  return formatTable(['ID', 'STATUS', 'NAME', 'E-MAIL', 'USAGE', 'CREATED (UTC)', 'INTENDED USE'], rows);
}

/** The registrations of the public service (plugged in through src/daemon.ts); a build without it has none. */
function review(database: SqlDatabase): RegistrationReview {
  const registrations = serviceCommands().registrations;
  if (!registrations) throw new CommandError('registrations are part of the public service, which this build does not include');
  return registrations(database);
}

/** A refusal about the registration's state is the operator's to fix, not a failure. */
async function explained<T>(work: Promise<ReviewOutcome<T>>): Promise<T> {
  const result = await work;
  if (!result.ok) throw new CommandError(`${result.problem} (see "mowability registrations list")`);
  return result.value;
}

/** One `registrations` subcommand: its positionals after the subcommand, the parsed flags, the terminal. */
type Invocation = SubcommandInvocation;

/** --note / --reason, refused when it holds what a terminal would not print as text. */
function printableOption({ where, parsed }: Invocation, name: 'note' | 'reason'): string | undefined {
  const value = parsed.values[name];
  if (typeof value !== 'string') return undefined;
  assertPrintable(where, `--${name}`, value);
  return value;
}

async function listRegistrations({ where, rest, parsed, io }: Invocation): Promise<number> {
  expectPositionals(where, rest, []);
  const list = await withDatabase(parsed, io, (db) => review(db).list({ pending: parsed.values.pending === true }));
  if (parsed.values.json === true) printJson(io, list.map(asJson));
  else if (list.length === 0) io.stdout(parsed.values.pending === true ? 'No pending registrations.\n' : 'No registrations.\n');
  else io.stdout(table(list));
  return EXIT_OK;
}

async function approveRegistration(invocation: Invocation): Promise<number> {
  const { where, rest, parsed, io } = invocation;
  const id = parseId(where, expectPositionals(where, rest, ['ID'])[0] ?? '');
  const note = printableOption(invocation, 'note');
  const approved = await withDatabase(parsed, io, (db) =>
    explained(review(db).approve(id, Date.now(), { allowGet: parsed.values['allow-get'] === true, ...(note ? { note } : {}) })),
  );
  io.stdout(`Registration ${id} approved: API key ${approved.keyId} created for ${escapeTerminalText(approved.owner)}.\n`);
  io.stdout('The registrant collects the key once with their claim token (GET /v1/registrations/<claim_token>); it is not shown here.\n');
  return EXIT_OK;
}

async function rejectRegistration(invocation: Invocation): Promise<number> {
  const { where, rest, parsed, io } = invocation;
  const id = parseId(where, expectPositionals(where, rest, ['ID'])[0] ?? '');
  const reason = printableOption(invocation, 'reason');
  await withDatabase(parsed, io, (db) => explained(review(db).reject(id, Date.now(), reason)));
  io.stdout(`Registration ${id} rejected${reason ? ` (${escapeTerminalText(reason)})` : ''}.\n`);
  return EXIT_OK;
}

async function purgeRegistrations({ where, rest, parsed, io }: Invocation): Promise<number> {
  expectPositionals(where, rest, []);
  const raw = parsed.values['older-than'];
  const days = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(days)) throw new UsageError(where, '--older-than DAYS is required (a whole number of days, e.g. 30)');
  const removed = await withDatabase(parsed, io, (db) => review(db).purge(Date.now() - days * DAY_MS, Date.now()));
  io.stdout(`Deleted ${removed} registration${removed === 1 ? '' : 's'} (rejected, claimed or expired, older than ${days} days).\n`);
  return EXIT_OK;
}

const SUBCOMMANDS: Subcommands = {
  list: listRegistrations,
  approve: approveRegistration,
  reject: rejectRegistration,
  purge: purgeRegistrations,
};

export async function registrationsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, {
    pending: { type: 'boolean' },
    json: { type: 'boolean' },
    'allow-get': { type: 'boolean' },
    note: { type: 'string' },
    reason: { type: 'string' },
    'older-than': { type: 'string' },
  });
  return runSubcommand(COMMAND, parsed, io, HELP.registrations, SUBCOMMANDS);
}
