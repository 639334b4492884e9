/**
 * Runs the daemon under the address-family restriction of systemd/mowability.service:
 * a small seccomp helper (test/helpers/restrictAddressFamilies.c), compiled with the
 * system C compiler into a temp dir, makes socket(2) fail with EAFNOSUPPORT for every
 * family the unit does not allow, as systemd's RestrictAddressFamilies= does.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const UNIT_FILE = fileURLToPath(new URL('../../systemd/mowability.service', import.meta.url));
const HELPER_SOURCE = fileURLToPath(new URL('./restrictAddressFamilies.c', import.meta.url));

/** Linux address family numbers (include/linux/socket.h) of the names a unit may list. */
const ADDRESS_FAMILIES: Readonly<Record<string, number>> = { AF_UNIX: 1, AF_INET: 2, AF_INET6: 10, AF_NETLINK: 16, AF_PACKET: 17 };

/** The families the unit's RestrictAddressFamilies= allows, as names. */
export function unitAddressFamilies(unitText = readFileSync(UNIT_FILE, 'utf8')): string[] {
  const lines = unitText.split('\n').filter((line) => line.startsWith('RestrictAddressFamilies='));
  if (lines.length !== 1) throw new Error(`expected one RestrictAddressFamilies= line in ${UNIT_FILE}, found ${lines.length}`);
  const names = (lines[0] as string).slice('RestrictAddressFamilies='.length).trim().split(/\s+/);
  if (names.some((name) => name.startsWith('~'))) throw new Error('a deny-list (~...) is not supported by the test helper');
  return names;
}

/** Compiles the helper into `dir` and returns the launcher prefix: [binary, "1,2,10", "--"]. */
export function addressFamilyLauncher(dir: string, families: readonly string[] = unitAddressFamilies()): string[] {
  const numbers = families.map((name) => {
    const number = ADDRESS_FAMILIES[name];
    if (number === undefined) throw new Error(`unknown address family ${name}: add it to ADDRESS_FAMILIES`);
    return number;
  });
  const binary = join(dir, 'restrict-address-families');
  execFileSync('cc', ['-O2', '-Wall', '-Werror', '-o', binary, HELPER_SOURCE], { stdio: 'pipe' });
  return [binary, numbers.join(','), '--'];
}
