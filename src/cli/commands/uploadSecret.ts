/**
 * `mowability upload-secret ecowitt|ambient|wunderground [STATION_ID]`: turns
 * an Ecowitt gateway's PASSKEY, an Ambient console's PASSKEY (its MAC, any
 * spelling) or a WU station's PASSWORD into the station's `upload`
 * line. The secret comes from MOWABILITY_UPLOAD_SECRET or standard input,
 * never from the command line (shell history, `ps`), and only its SHA-256 is printed.
 */
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { printJson } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { passkeyDigest, uploadSecretDigest } from '../../http/uploadsMatch.js';
import { assertPrintable } from '../terminalText.js';

const COMMAND = 'upload-secret';
export const UPLOAD_SECRET_ENV = 'MOWABILITY_UPLOAD_SECRET';

async function readSecret(io: CliIo): Promise<string> {
  const fromEnv = io.env[UPLOAD_SECRET_ENV];
  const raw = fromEnv !== undefined && fromEnv !== '' ? fromEnv : await io.readStdin?.();
  // `echo secret |` ends in a newline that is not part of the secret.
  const secret = (raw ?? '').replace(/\r?\n$/, '');
  if (secret === '')
    throw new CommandError(
      `no secret given: pipe it in (e.g. "read -rs S; printf %s \\"$S\\" | mowability upload-secret ...") or set ${UPLOAD_SECRET_ENV}`,
    );
  return secret;
}

export async function uploadSecretCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { json: { type: 'boolean' } });
  if (printedHelp(parsed, io, HELP[COMMAND])) return EXIT_OK;
  const [protocol, ...rest] = parsed.positionals;
  let upload: Record<string, string>;
  if (protocol === 'ecowitt' || protocol === 'ambient') {
    expectPositionals(`${COMMAND} ${protocol}`, rest, []);
    upload = { passkeySha256: passkeyDigest(await readSecret(io)) };
  } else if (protocol === 'wunderground') {
    const [stationId] = expectPositionals(`${COMMAND} wunderground`, rest, ['STATION_ID']);
    assertPrintable(`${COMMAND} wunderground`, 'STATION_ID', stationId ?? '');
    upload = { stationId: stationId ?? '', passwordSha256: uploadSecretDigest(await readSecret(io)) };
  } else {
    throw new UsageError(
      COMMAND,
      protocol === undefined ? 'missing ecowitt, ambient or wunderground' : `expected ecowitt, ambient or wunderground, got "${protocol}"`,
    );
  }
  if (parsed.values.json === true) printJson(io, { upload });
  else io.stdout(`Add to the station in the config file:\n  "upload": ${JSON.stringify(upload)}\n`);
  return EXIT_OK;
}
