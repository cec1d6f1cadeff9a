import { randomBytes } from 'node:crypto';

/** A new opaque id such as `org_3f9a0c2b7d1e4a56`: a type prefix and 64 random bits in hex. */
export function newId(prefix: 'org' | 'usr'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
