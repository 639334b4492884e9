/**
 * Command-line parsing with node:util parseArgs. Every command accepts
 * --config FILE, --help and one flag per setting (from the config schema);
 * the setting flags are handed to the configuration loader.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { listSettings } from '../config/schema.js';
import { UsageError } from './io.js';

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
