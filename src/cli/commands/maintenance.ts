import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { printJson, withStore } from '../context.js';
import { EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';

const COMMAND = 'maintenance';

export async function maintenanceCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { json: { type: 'boolean' } });
  if (printedHelp(parsed, io, HELP.maintenance)) return EXIT_OK;
  const [action] = expectPositionals(COMMAND, parsed.positionals, ['on|off|status']);
  if (action === 'on' || action === 'off') {
    await withStore(parsed, io, (store) => store.setMaintenance(action === 'on'));
    io.stdout(action === 'on' ? 'Maintenance mode is on.\n' : 'Maintenance mode is off.\n');
    return EXIT_OK;
  }
  if (action === 'status') {
    const active = await withStore(parsed, io, (store) => store.isMaintenance());
    if (parsed.values.json === true) printJson(io, { maintenance: active });
    else io.stdout(active ? 'Maintenance mode is on.\n' : 'Maintenance mode is off.\n');
    return EXIT_OK;
  }
  throw new UsageError(COMMAND, `expected on, off or status, got "${action}"`);
}
