import type { MemberRole } from '../accounts.types.js';

/** Where a route names the organization it acts on. */
export interface OrgLocation {
  from: 'params' | 'query' | 'body';
  field: string;
  /** A route that may leave the org out (its service then picks one the caller belongs to). */
  optional?: boolean;
}

export interface OrgAccessRule extends OrgLocation {
  /** Roles allowed; every member when left out. */
  roles: readonly MemberRole[];
}

export const ORG_ACCESS = Symbol('ORG_ACCESS');

/** Managing an org's keys and metadata keys. */
export const MANAGERS: readonly MemberRole[] = ['owner', 'admin'];
/** Reading an org's usage and key lists. */
export const MEMBERS: readonly MemberRole[] = ['owner', 'admin', 'member'];
