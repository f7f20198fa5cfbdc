/**
 * Which addresses the per-address limits count as one. An IPv6 subscriber is given a whole /64 (or
 * more), so counting each of its addresses would hand one client 2^64 buckets: IPv6 is counted by
 * its prefix. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, in any spelling) is its IPv4 address.
 */
import { isIP } from 'node:net';

/** IPv6 addresses are counted by their first 64 bits unless the operator says otherwise. */
export const DEFAULT_IPV6_PREFIX = 64;

/** The 16 bytes of an IPv6 address (`isIP` already said it is one); a zone (`%eth0`) is dropped. */
function ipv6Bytes(address: string): number[] {
  const text = address.split('%')[0] ?? '';
  const [head = '', tail] = text.split('::');
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(group, 16));
    }
    return out;
  };
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 255]);
}

const isMappedIpv4 = (bytes: readonly number[]): boolean =>
  bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 255 && bytes[11] === 255;

/** `::ffff:1.2.3.4` (or `0:0:0:0:0:ffff:102:304`) is `1.2.3.4`; every other address is itself. */
export function unmapIpv4(address: string): string {
  if (isIP(address) !== 6) return address;
  const bytes = ipv6Bytes(address);
  return isMappedIpv4(bytes) ? bytes.slice(12).join('.') : address;
}

/**
 * The key the per-address limits count `address` under: an IPv4 address itself, an IPv6 address its
 * first `ipv6Prefix` bits (`2001:db8:1:2::/64`), anything else (a name for in-process callers) itself.
 */
export function addressGroup(address: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  const unmapped = unmapIpv4(address);
  if (isIP(unmapped) !== 6) return unmapped;
  const bytes = ipv6Bytes(unmapped);
  for (let bit = 0; bit < 128; bit++) {
    if (bit >= ipv6Prefix) bytes[bit >> 3] = bytes[bit >> 3]! & ~(0x80 >> (bit & 7));
  }
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  // One spelling per group: trailing zero words of the prefix are written `::`.
  return `${words
    .join(':')
    .replace(/(?::0)+$/, '::')
    .replace(/^0::$/, '::')}/${ipv6Prefix}`;
}
