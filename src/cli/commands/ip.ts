import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { printJson, withStore } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { InvalidAddressError } from '../../store/addressBlocks.js';
import { formatTable, assertPrintable, escapeTerminalText } from '../terminalText.js';

const COMMAND = 'ip';

export async function ipCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { note: { type: 'string' }, json: { type: 'boolean' } });
  const [subcommand, ...rest] = parsed.positionals;
  if (printedHelp(parsed, io, HELP.ip)) return EXIT_OK;
  if (subcommand === undefined) throw new UsageError(COMMAND, 'missing subcommand');
  const where = `${COMMAND} ${subcommand}`;
  try {
    switch (subcommand) {
      case 'block': {
        const [address] = expectPositionals(where, rest, ['ADDR|CIDR']);
        const note = typeof parsed.values.note === 'string' ? parsed.values.note : undefined;
        if (note !== undefined) assertPrintable(where, '--note', note);
        const result = await withStore(parsed, io, (store) => store.blockAddress(address ?? '', note));
        io.stdout(result.added ? `Blocked ${result.cidr}.\n` : `${result.cidr} was already blocked.\n`);
        return EXIT_OK;
      }
      case 'unblock': {
        const [address] = expectPositionals(where, rest, ['ADDR|CIDR']);
        const result = await withStore(parsed, io, (store) => store.unblockAddress(address ?? ''));
        if (!result.removed) throw new CommandError(`${result.cidr} is not blocked (see "mowability ip list")`);
        io.stdout(`Unblocked ${result.cidr}.\n`);
        return EXIT_OK;
      }
      case 'list': {
        expectPositionals(where, rest, []);
        const blocks = await withStore(parsed, io, (store) => store.listBlocks());
        if (parsed.values.json === true) {
          printJson(
            io,
            blocks.map((block) => ({ cidr: block.cidr, created_at: block.createdAt, note: block.note })),
          );
        } else if (blocks.length === 0) {
          io.stdout('No blocked addresses.\n');
        } else {
          io.stdout(
            formatTable(
              ['ADDRESS', 'CREATED', 'NOTE'],
              blocks.map((b) => [b.cidr, b.createdAt, escapeTerminalText(b.note ?? '')]),
            ),
          );
        }
        return EXIT_OK;
      }
      default:
        throw new UsageError(COMMAND, `unknown subcommand "${subcommand}"`);
    }
  } catch (err) {
    if (err instanceof InvalidAddressError) throw new UsageError(where, err.message);
    throw err;
  }
}
