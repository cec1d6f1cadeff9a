import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
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

const MAX_NAME_LENGTH = 200;
const MEMBERSHIP_CACHE_TTL_MS = 60_000;
const MEMBERSHIP_CACHE_MAX_ENTRIES = 10_000;

/** Organizations, users and who belongs where. */
@Injectable()
export class AccountsService {
  /**
   * Memberships seen, so the dashboard's exports do not read them from DuckDB on every
   * request. Only positive answers are kept: memberships are added, never removed.
   */
  private readonly knownMemberships = new TtlCache<true>(
    MEMBERSHIP_CACHE_TTL_MS,
    MEMBERSHIP_CACHE_MAX_ENTRIES,
  );

  constructor(
    private readonly orgs: OrganizationRepository,
    private readonly users: UserRepository,
  ) {}

  async createOrg(name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > MAX_NAME_LENGTH) {
      throw ApiError.badRequest(
        'INVALID_NAME',
        `Organization name must be 1 to ${MAX_NAME_LENGTH} characters`,
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
    return this.orgs.upsertMembership(orgId, userId, role);
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

  async isMember(userId: string, orgId: string): Promise<boolean> {
    const cacheKey = `${orgId}\u0000${userId}`;
    if (this.knownMemberships.get(cacheKey)) return true;
    const member = (await this.orgs.findMembership(orgId, userId)) !== null;
    if (member) this.knownMemberships.set(cacheKey, true);
    return member;
  }

  /** Throws 403 NOT_A_MEMBER unless the user belongs to the org (an unknown org included, so ids do not leak). */
  async requireMember(userId: string, orgId: string): Promise<void> {
    if (!(await this.isMember(userId, orgId))) {
      throw ApiError.forbidden('NOT_A_MEMBER', `You are not a member of organization ${orgId}`);
    }
  }

  listOrgs(): Promise<Organization[]> {
    return this.orgs.list();
  }

  listUsers(): Promise<User[]> {
    return this.users.list();
  }
}
