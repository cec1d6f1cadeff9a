export type MemberRole = 'owner' | 'admin' | 'member';
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

export interface Organization {
  orgId: string;
  name: string;
  createdAt: string;
}

export interface User {
  userId: string;
  email: string;
  createdAt: string;
}

export interface Membership {
  orgId: string;
  userId: string;
  role: MemberRole;
  createdAt: string;
}

/** An org as seen by one of its members. */
export interface MemberOrganization extends Organization {
  role: MemberRole;
}

/** A key as listed: never with its secret. */
export interface ProcessingKeySummary {
  keyId: string;
  orgId: string;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface AccountKeySummary {
  keyId: string;
  userId: string;
  defaultOrgId: string | null;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A key just created: the only time its secret is seen. */
export interface CreatedKey {
  keyId: string;
  secret: string;
}
