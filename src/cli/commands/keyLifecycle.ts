/** `keys rotate|usage|quota|expire`: the lifecycle of a key on a public service. */
import { expectPositionals, parseId, type ParsedCommand } from '../args.js';
import { printJson, withDatabase } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { escapeTerminalText } from '../terminalText.js';
import { keyUsageDays } from '../../store/keyUsage.js';
import { ServiceStore } from '../../store/serviceStore.js';
import { calendarDay } from '../../util/calendarDay.js';
import { calculationContext } from '../../config/calculationContext.js';
import { systemClock } from '../../util/clock.js';
import { formatTable } from '../table.js';

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
      if (json) printJson(io, { id: rotated.id, owner: rotated.owner, key: rotated.key, replaces: id, old_key_expires_at: rotated.oldKeyExpiresAt });
      else {
        io.stdout(`Created API key ${rotated.id} for ${escapeTerminalText(rotated.owner)}; key ${id} keeps working until ${rotated.oldKeyExpiresAt}.\n`);
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
        io.stdout(`Key ${id} (${escapeTerminalText(report.key.owner)}): ${total} requests in the last ${days} days; last used ${report.key.lastUsedAt ?? 'never'}.\n`);
        if (report.rows.length > 0) io.stdout(formatTable(['DAY', 'REQUESTS'], report.rows.map((row) => [row.day, String(row.requests)])));
      }
      return EXIT_OK;
    }
    case 'quota': {
      const [idText, value] = expectPositionals(where, rest, ['ID', 'REQUESTS_PER_DAY|default']);
      const id = parseId(where, idText ?? '');
      const quota = value === 'default' ? null : /^\d+$/.test(value ?? '') ? Number(value) : NaN;
      if (quota !== null && !Number.isSafeInteger(quota)) throw new UsageError(where, 'give a whole number of requests per day (0: unlimited) or "default" (keys.dailyQuota)');
      if (!(await withDatabase(parsed, io, (db) => new ServiceStore(db, systemClock).setKeyQuota(id, quota)))) throw notFound(id);
      io.stdout(quota === null ? `API key ${id} uses the configured quota (keys.dailyQuota).\n` : `API key ${id}: ${quota === 0 ? 'no daily quota' : `at most ${quota} requests per day`}.\n`);
      return EXIT_OK;
    }
    case 'expire': {
      const [idText, value] = expectPositionals(where, rest, ['ID', 'DATE|never']);
      const id = parseId(where, idText ?? '');
      const at = value === 'never' ? null : Date.parse(value ?? '');
      if (at !== null && !Number.isFinite(at)) throw new UsageError(where, 'give an ISO 8601 date or instant (e.g. 2027-01-01 or 2027-01-01T00:00:00Z) or "never"');
      const expiresAt = at === null ? null : new Date(at).toISOString();
      if (!(await withDatabase(parsed, io, (db) => new ServiceStore(db, systemClock).setKeyExpiry(id, expiresAt)))) throw notFound(id);
      io.stdout(expiresAt === null ? `API key ${id} no longer expires.\n` : `API key ${id} stops working at ${expiresAt}.\n`);
      return EXIT_OK;
    }
    default:
      throw new UsageError('keys', `unknown subcommand "${subcommand}"`);
  }
}
