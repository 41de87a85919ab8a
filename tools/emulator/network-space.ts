// IPv4 address space of a network: shared drives and machines placed on a network each take one
// address, and creation fails when none is left.
import type { NetworkRecord } from './records.js';

export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** Number of addresses in the network, or an explanation of why network/netmask do not describe one. */
export function networkSize(network: string, netmask: string): number | string {
  const base = parseIpv4(network);
  const mask = parseIpv4(netmask);
  if (base === null) return `"${network}" is not an IPv4 address`;
  if (mask === null) return `"${netmask}" is not an IPv4 netmask`;
  const size = 2 ** 32 - mask;
  if (!Number.isInteger(Math.log2(size))) return `"${netmask}" is not a contiguous netmask`;
  if (base % size !== 0) return `"${network}" is not the first address of a network with netmask ${netmask}`;
  return size;
}

// Offset 0 is the network address, 1 the gateway, and the last one the broadcast address.
const FIRST_HOST_OFFSET = 2;

function hostOffsets(net: NetworkRecord): { first: number; last: number } {
  const size = networkSize(net.network, net.netmask);
  if (typeof size === 'string') throw new Error(`network ${net.id}: ${size}`);
  return { first: FIRST_HOST_OFFSET, last: size - 2 };
}

export function freeAddressCount(net: NetworkRecord): number {
  const { first, last } = hostOffsets(net);
  return Math.max(0, last - first + 1 - net.allocated.size);
}

/** Takes the lowest free host address, or answers null when the network is full. */
export function allocateAddress(net: NetworkRecord): string | null {
  const { first, last } = hostOffsets(net);
  const base = parseIpv4(net.network) ?? 0;
  for (let offset = first; offset <= last; offset += 1) {
    if (!net.allocated.has(offset)) {
      net.allocated.add(offset);
      return formatIpv4(base + offset);
    }
  }
  return null;
}

export function releaseAddress(net: NetworkRecord, address: string): void {
  const value = parseIpv4(address);
  const base = parseIpv4(net.network);
  if (value !== null && base !== null) net.allocated.delete(value - base);
}
