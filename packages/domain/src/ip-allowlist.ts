import { DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';

/**
 * An organization's API IP allowlist (`allowedApiIpAddresses`): space-separated addresses and CIDR
 * ranges, IPv4 or IPv6. An empty list restricts nothing; otherwise a request from an address outside
 * every range is refused for the organization's resources, on every transport.
 */

interface Network {
  family: 4 | 6;
  /** the network's address, host bits cleared */
  base: bigint;
  prefix: number;
}

const MAX_ENTRIES = 100;

/**
 * Reads an allowlist as an admin sends it: entries separated by spaces (or any whitespace), each an
 * address or a CIDR range. Answers the list as stored: its entries joined by one space.
 */
export function parseIpAllowlist(text: string): Result<string> {
  const entries = text.split(/\s+/).filter((entry) => entry !== '');
  const wrong = entries.filter((entry) => parseNetwork(entry) === null);
  if (wrong.length > 0) {
    return err(
      invalidAllowlist(
        wrong.map((entry) => `${JSON.stringify(entry.slice(0, 64))} is not an IP address or CIDR range`),
      ),
    );
  }
  if (entries.length > MAX_ENTRIES) {
    return err(invalidAllowlist([`can't have more than ${MAX_ENTRIES} entries`]));
  }
  return ok(entries.join(' '));
}

/**
 * Whether a request from `address` may reach an organization with this allowlist: always with an empty
 * list, and for a caller without a network address (the CLI on the database); otherwise when some
 * entry's range holds it. An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is that IPv4 address.
 * An entry that does not parse (none is stored so) holds nothing.
 */
export function addressAllowed(allowlist: string, address: string | null): boolean {
  const entries = allowlist.split(' ').filter((entry) => entry !== '');
  if (entries.length === 0 || address === null) return true;
  const client = parseAddress(address);
  if (!client) return false;
  return entries.some((entry) => {
    const network = parseNetwork(entry);
    return network !== null && network.family === client.family && contains(network, client.value);
  });
}

/** The refusal of a request from outside the organization's allowlist (REST 403, a GraphQL error). */
export function addressNotAllowed(): DomainError {
  return new DomainError({
    kind: 'forbidden',
    code: 'ip_address_not_allowed',
    message: "Your IP address isn't allowed to access this organization",
  });
}

function invalidAllowlist(reasons: readonly string[]): DomainError {
  return unprocessable(
    'invalid_ip_allowlist',
    `Validation failed: ${reasons.map((reason) => `Allowed api ip addresses ${reason}`).join(', ')}`,
  );
}

function contains(network: Network, value: bigint): boolean {
  const width = network.family === 4 ? 32 : 128;
  const shift = BigInt(width - network.prefix);
  return value >> shift === network.base >> shift;
}

function parseNetwork(entry: string): Network | null {
  const [host, prefixText, ...rest] = entry.split('/');
  if (host === undefined || rest.length > 0) return null;
  const address = parseAddress(host);
  if (!address) return null;
  const width = address.family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (prefix > width) return null;
  const shift = BigInt(width - prefix);
  return { family: address.family, base: (address.value >> shift) << shift, prefix };
}

/** An IPv4 or IPv6 address as a number; an IPv4-mapped IPv6 address as its IPv4 address. */
export function parseAddress(text: string): { family: 4 | 6; value: bigint } | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  // A zone (`fe80::1%eth0`) names an interface, not another address.
  const address = text.split('%')[0] ?? '';
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string | undefined): number[] | null => {
    if (!half) return [];
    const words: number[] = [];
    const pieces = half.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        words.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
        words.push(Number.parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return words;
  };
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const words = [...head, ...new Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...tail];
  return words.reduce((value, word) => (value << 16n) | BigInt(word), 0n);
}
