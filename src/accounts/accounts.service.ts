import { Injectable } from '../common/nest-decorators.js';
// validator.js's rule, which class-validator's isEmail wraps, without loading class-validator.
import isEmailModule from 'validator/lib/isEmail.js';
import { ApiError } from '../common/api-error.js';
import {
  MEMBER_ROLES,
  type MemberOrganization,
  type MemberRole,
  type Membership,
  type Organization,
  type User,
} from './accounts.types.js';
import { TtlCache } from '../common/ttl-cache.js';
import { newId } from './ids.js';
import { OrganizationRepository } from './organization.repository.js';
import { UserRepository } from './user.repository.js';
import { hasVisibleCharacter } from '../common/visible-text.js';

// A CommonJS module whose export is the function, with itself as `.default` (the typed name).
const isEmail = isEmailModule.default;

const MAX_NAME_LENGTH = 200;
const MEMBERSHIP_CACHE_TTL_MS = 60_000;
const MEMBERSHIP_CACHE_MAX_ENTRIES = 10_000;

/** Organizations, users and who belongs where. */
@Injectable()
export class AccountsService {
  /**
   * Roles seen, so the dashboard's requests do not read them from DuckDB every time. Only
   * memberships are kept (they are added, never removed); a role change through this
   * process (the CLI goes through the running server) replaces its entry at once.
   */
  private readonly knownRoles = new TtlCache<MemberRole>(
    MEMBERSHIP_CACHE_TTL_MS,
    MEMBERSHIP_CACHE_MAX_ENTRIES,
  );

  constructor(
    private readonly orgs: OrganizationRepository,
    private readonly users: UserRepository,
  ) {}

  async createOrg(name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (!hasVisibleCharacter(trimmed) || trimmed.length > MAX_NAME_LENGTH) {
      throw ApiError.badRequest(
        'INVALID_NAME',
        `Organization name must hold a visible character and be at most ${MAX_NAME_LENGTH} characters`,
      );
    }
    return this.orgs.insert(newId('org'), trimmed);
  }

  /**
   * Creates an org with a chosen id unless it exists; used for the default org of an
   * auth-disabled deployment, whose id comes from configuration.
   */
  async ensureOrg(orgId: string, name: string): Promise<Organization> {
    return (await this.orgs.findById(orgId)) ?? this.orgs.insert(orgId, name);
  }

  async createUser(email: string): Promise<User> {
    // Emails compare case-insensitively in practice; store one spelling so UNIQUE holds.
    const normalized = email.trim().toLowerCase();
    if (!isEmail(normalized)) {
      throw ApiError.badRequest('INVALID_EMAIL', `"${email}" is not a valid email address`);
    }
    if (await this.users.findByEmail(normalized)) {
      throw new ApiError(409, 'EMAIL_TAKEN', `A user with email ${normalized} already exists`);
    }
    return this.users.insert(newId('usr'), normalized);
  }

  async addMember(orgId: string, userId: string, role: MemberRole = 'member'): Promise<Membership> {
    if (!MEMBER_ROLES.includes(role)) {
      throw ApiError.badRequest('INVALID_ROLE', `Role must be one of ${MEMBER_ROLES.join(', ')}`);
    }
    await this.requireOrg(orgId);
    await this.requireUser(userId);
    const membership = await this.orgs.upsertMembership(orgId, userId, role);
    this.knownRoles.set(roleKey(orgId, userId), role);
    return membership;
  }

  async requireOrg(orgId: string): Promise<Organization> {
    const org = await this.orgs.findById(orgId);
    if (!org) throw ApiError.notFound('ORG_NOT_FOUND', `Organization ${orgId} does not exist`);
    return org;
  }

  async requireUser(userId: string): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw ApiError.notFound('USER_NOT_FOUND', `User ${userId} does not exist`);
    return user;
  }

  orgsOfUser(userId: string): Promise<MemberOrganization[]> {
    return this.orgs.orgsOfUser(userId);
  }

  /** The user's role in the org; null when they do not belong to it (or it does not exist). */
  async roleOf(userId: string, orgId: string): Promise<MemberRole | null> {
    const known = this.knownRoleOf(userId, orgId);
    if (known) return known;
    const role = (await this.orgs.findMembership(orgId, userId))?.role ?? null;
    if (role) this.knownRoles.set(roleKey(orgId, userId), role);
    return role;
  }

  /**
   * The user's role in the org when this process holds it in memory (the entry `roleOf`
   * answers from); undefined when only the store can tell, non-membership included.
   */
  knownRoleOf(userId: string, orgId: string): MemberRole | undefined {
    return this.knownRoles.get(
      roleKey(orgId, userId),
      async () => (await this.orgs.findMembership(orgId, userId))?.role,
    );
  }

  async isMember(userId: string, orgId: string): Promise<boolean> {
    return (await this.roleOf(userId, orgId)) !== null;
  }

  listOrgs(): Promise<Organization[]> {
    return this.orgs.list();
  }

  listUsers(): Promise<User[]> {
    return this.users.list();
  }
}

function roleKey(orgId: string, userId: string): string {
  return `${orgId}\u0000${userId}`;
}
