/**
 * Command-line parsing with node:util parseArgs. Every command accepts
 * --config FILE, --help and one flag per setting (from the config schema);
 * the setting flags are handed to the configuration loader.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { listSettings } from '../config/schema.js';
import { EXIT_OK, UsageError, type CliIo } from './io.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];
export type Options = Record<string, OptionSpec>;

export function settingFlags(): Options {
  const flags: Options = {};
  for (const { spec } of listSettings()) {
    if (spec.arg) flags[spec.arg] = { type: typeof spec.default === 'boolean' ? 'boolean' : 'string' };
  }
  return flags;
}

const COMMON: Options = { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } };

export interface ParsedCommand {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** --config and setting flags, rebuilt as --name=value for the configuration loader. */
  configArgv: string[];
  help: boolean;
}

export function parseCommand(command: string, argv: readonly string[], options: Options = {}): ParsedCommand {
  const settings = settingFlags();
  const all: Options = { ...settings, ...COMMON, ...options };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: all, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(command, (err as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const configArgv: string[] = [];
  for (const name of [...Object.keys(settings), 'config']) {
    const value = values[name];
    if (value !== undefined) configArgv.push(`--${name}=${String(value)}`);
  }
  return { values, positionals: parsed.positionals, configArgv, help: values.help === true };
}

export function expectPositionals(command: string, positionals: string[], names: string[]): string[] {
  if (positionals.length < names.length) throw new UsageError(command, `missing ${names.slice(positionals.length).join(' ')}`);
  if (positionals.length > names.length) throw new UsageError(command, `unexpected argument "${positionals[names.length]}"`);
  return positionals;
}

export function parseId(command: string, text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
    throw new UsageError(command, `ID must be a positive whole number, got "${text}"`);
  }
  return Number(text);
}

/** Prints the command's help when --help was given; the command then returns EXIT_OK. */
export function printedHelp(parsed: ParsedCommand, io: CliIo, help: string): boolean {
  if (parsed.help) io.stdout(`${help}\n`);
  return parsed.help;
}

/** One call of `COMMAND SUBCOMMAND …`: "keys add" for messages, the positionals after the subcommand, the flags, the streams. */
export interface SubcommandInvocation {
  where: string;
  subcommand: string;
  rest: string[];
  parsed: ParsedCommand;
  io: CliIo;
}

export type Subcommands = Readonly<Record<string, (invocation: SubcommandInvocation) => Promise<number>>>;

/** Runs the subcommand named by the first positional from the table; --help prints the command's help, no subcommand is a usage error. */
export async function runSubcommand(
  command: string,
  parsed: ParsedCommand,
  io: CliIo,
  help: string,
  subcommands: Subcommands,
): Promise<number> {
  const [subcommand, ...rest] = parsed.positionals;
  if (printedHelp(parsed, io, help)) return EXIT_OK;
  if (subcommand === undefined) throw new UsageError(command, 'missing subcommand');
  const run = Object.hasOwn(subcommands, subcommand) ? subcommands[subcommand] : undefined;
  if (!run) throw new UsageError(command, `unknown subcommand "${subcommand}"`);
  return run({ where: `${command} ${subcommand}`, subcommand, rest, parsed, io });
}
