import { Injectable } from '../common/nest-decorators.js';
import { DuckDbService } from '../database/duckdb.service.js';
import type { MemberOrganization, MemberRole, Membership, Organization } from './accounts.types.js';
import { iso } from './timestamps.js';

interface OrgRow {
  id: string;
  name: string;
  created_at: Date;
}

interface MembershipRow {
  org_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Date;
}

/** Organizations and their memberships. */
@Injectable()
export class OrganizationRepository {
  constructor(private readonly db: DuckDbService) {}

  async insert(orgId: string, name: string): Promise<Organization> {
    await this.db.run('INSERT INTO organizations (id, name) VALUES ($1, $2)', [orgId, name]);
    return (await this.findById(orgId))!;
  }

  async findById(orgId: string): Promise<Organization | null> {
    const rows = await this.db.all<OrgRow>(
      'SELECT id, name, created_at FROM organizations WHERE id = $1',
      [orgId],
    );
    return rows.length ? toOrg(rows[0]) : null;
  }

  async list(): Promise<Organization[]> {
    const rows = await this.db.all<OrgRow>(
      'SELECT id, name, created_at FROM organizations ORDER BY created_at, id',
    );
    return rows.map(toOrg);
  }

  /** Adds a membership, or changes the role of an existing one. */
  async upsertMembership(orgId: string, userId: string, role: MemberRole): Promise<Membership> {
    await this.db.run(
      `INSERT INTO memberships (org_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role`,
      [orgId, userId, role],
    );
    return (await this.findMembership(orgId, userId))!;
  }

  async findMembership(orgId: string, userId: string): Promise<Membership | null> {
    const rows = await this.db.all<MembershipRow>(
      'SELECT org_id, user_id, role, created_at FROM memberships WHERE org_id = $1 AND user_id = $2',
      [orgId, userId],
    );
    return rows.length
      ? {
          orgId: rows[0].org_id,
          userId: rows[0].user_id,
          role: rows[0].role,
          createdAt: iso(rows[0].created_at),
        }
      : null;
  }

  async orgsOfUser(userId: string): Promise<MemberOrganization[]> {
    const rows = await this.db.all<OrgRow & { role: MemberRole }>(
      `SELECT o.id, o.name, o.created_at, m.role
         FROM memberships m JOIN organizations o ON o.id = m.org_id
        WHERE m.user_id = $1
        ORDER BY o.created_at, o.id`,
      [userId],
    );
    return rows.map((row) => ({ ...toOrg(row), role: row.role }));
  }
}

function toOrg(row: OrgRow): Organization {
  return { orgId: row.id, name: row.name, createdAt: iso(row.created_at) };
}
