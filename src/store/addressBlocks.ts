/**
 * Blocked client addresses: single IPv4/IPv6 addresses or CIDR ranges.
 * IPv4-mapped IPv6 clients (::ffff:1.2.3.4) match IPv4 entries.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export class InvalidAddressError extends Error {
  constructor(text: string) {
    super(`"${text}" is not an IPv4/IPv6 address or CIDR range (examples: 203.0.113.7, 198.51.100.0/24, 2001:db8::/32)`);
    this.name = 'InvalidAddressError';
  }
}

/** Canonical text of an address or range: "203.0.113.7/32", "2001:db8::/32". */
export function normalizeBlockEntry(text: string): string {
  const trimmed = text.trim();
  try {
    if (trimmed.includes('/')) {
      const [parsed, parsedPrefix] = ipaddr.parseCIDR(trimmed);
      const address = unmap(parsed);
      // ::ffff:a.b.c.d/104 is the IPv4 range a.b.c.d/8.
      const prefix = address.kind() === parsed.kind() ? parsedPrefix : parsedPrefix - 96;
      return `${networkAddress(address, prefix).toString()}/${prefix}`;
    }
    const address = unmap(ipaddr.parse(trimmed));
    return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
  } catch {
    throw new InvalidAddressError(text);
  }
}

function unmap(address: Address): Address {
  return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

function networkAddress(address: Address, prefix: number): Address {
  if (prefix < 0) throw new Error('prefix');
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) {
    const index = bit >> 3;
    bytes[index] = (bytes[index] ?? 0) & ~(0x80 >> (bit & 7));
  }
  return ipaddr.fromByteArray(bytes);
}

/** Matches client addresses against a fixed list of blocked ranges. */
export class AddressMatcher {
  readonly #ranges: Array<[Address, number]>;

  constructor(entries: readonly string[]) {
    this.#ranges = [];
    for (const entry of entries) {
      try {
        const [address, prefix] = ipaddr.parseCIDR(normalizeBlockEntry(entry));
        this.#ranges.push([address, prefix]);
      } catch {
        // A malformed row (written by hand) must not open or break the service; skip it.
      }
    }
  }

  get size(): number {
    return this.#ranges.length;
  }

  matches(clientAddress: string): boolean {
    if (this.#ranges.length === 0) return false;
    let client: Address;
    try {
      client = unmap(ipaddr.parse(clientAddress));
    } catch {
      return false;
    }
    return this.#ranges.some(([range, prefix]) => range.kind() === client.kind() && client.match(range, prefix));
  }
}
