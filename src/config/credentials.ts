/**
 * Secrets from systemd credentials. A service started with
 * `LoadCredential=mqtt.password:/etc/mowability/mqtt-password` finds the file
 * as $CREDENTIALS_DIRECTORY/mqtt.password, readable by the service's (dynamic)
 * user only, and never in the environment or the unit (systemd.exec(5),
 * "Credentials"; https://systemd.io/CREDENTIALS/). A credential is named after
 * its setting key and acts as that setting's environment variable, so it
 * overrides the config file like the variable would.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unreadableProblem } from './fileAccess.js';
import { listSettings } from './schema.js';

/** Set by systemd for a service with LoadCredential=/SetCredential=. */
export const CREDENTIALS_DIRECTORY_ENV = 'CREDENTIALS_DIRECTORY';

/** Station units' secrets a credential may carry, with their variables (the units' schemas use these names). */
export const UNIT_CREDENTIAL_VARIABLES: Readonly<Record<string, string>> = {
  // The mower control's Home Assistant token (src/mower/controlSettings.ts).
  'mowerControl.homeAssistantToken': 'MOWABILITY_MOWER_CONTROL_HOME_ASSISTANT_TOKEN',
};

/** The settings a credential may carry: the secrets themselves (paths such as mqtt.key can use %d in the unit). */
export const CREDENTIAL_SETTINGS = [
  'broker.users',
  'mqtt.password',
  'store.url',
  'http.rateLimitStore',
  ...Object.keys(UNIT_CREDENTIAL_VARIABLES),
] as const;

type Env = Readonly<Record<string, string>>;

export interface CredentialsResult {
  /** The environment with each credential in its setting's variable. */
  env: Record<string, string>;
  /** One line per problem; never contains a credential's content. */
  problems: string[];
}

/** Environment variable of each credential setting, from the schema. */
function credentialVariables(): Map<string, string> {
  const variables = new Map<string, string>(Object.entries(UNIT_CREDENTIAL_VARIABLES));
  for (const { key, spec } of listSettings()) {
    if ((CREDENTIAL_SETTINGS as readonly string[]).includes(key) && spec.env) variables.set(key, spec.env);
  }
  return variables;
}

/** A file written with `echo` ends in a newline that is not part of the secret. */
function withoutFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

function listDirectory(directory: string): { names: string[]; problem?: string } {
  try {
    return { names: readdirSync(directory) };
  } catch (err) {
    const unreadable =
      (err as NodeJS.ErrnoException).code === 'EACCES'
        ? unreadableProblem(CREDENTIALS_DIRECTORY_ENV, directory, { directory: true })
        : undefined;
    if (unreadable !== undefined) return { names: [], problem: unreadable };
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    return {
      names: [],
      problem: `${CREDENTIALS_DIRECTORY_ENV}="${directory}" cannot be read (${code}); check the unit's LoadCredential= lines`,
    };
  }
}

/** Reads the credentials in $CREDENTIALS_DIRECTORY into their settings' environment variables. */
export function applyCredentials(env: Env): CredentialsResult {
  const directory = env[CREDENTIALS_DIRECTORY_ENV];
  const result: CredentialsResult = { env: { ...env }, problems: [] };
  if (!directory) return result;

  const variables = credentialVariables();
  const { names, problem } = listDirectory(directory);
  if (problem) result.problems.push(problem);
  for (const name of names.sort()) {
    const variable = variables.get(name);
    const path = join(directory, name);
    if (variable === undefined) {
      result.problems.push(
        `credential "${name}" (${path}) is not a setting this daemon reads from credentials; use one of: ${CREDENTIAL_SETTINGS.join(', ')}`,
      );
    } else if (env[variable] !== undefined) {
      result.problems.push(`"${name}" is set twice: by the credential ${path} and by ${variable}; remove one of them`);
    } else {
      try {
        result.env[variable] = withoutFinalNewline(readFileSync(path, 'utf8'));
      } catch (err) {
        result.problems.push(`credential "${name}" (${path}) cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      }
    }
  }
  return result;
}
