import { Injectable } from '../common/nest-decorators.js';
import { DuckDbService } from '../database/duckdb.service.js';
import type { User } from './accounts.types.js';
import { iso } from './timestamps.js';

interface UserRow {
  id: string;
  email: string;
  created_at: Date;
}

@Injectable()
export class UserRepository {
  constructor(private readonly db: DuckDbService) {}

  async insert(userId: string, email: string): Promise<User> {
    await this.db.run('INSERT INTO users (id, email) VALUES ($1, $2)', [userId, email]);
    return (await this.findById(userId))!;
  }

  async findById(userId: string): Promise<User | null> {
    const rows = await this.db.all<UserRow>(
      'SELECT id, email, created_at FROM users WHERE id = $1',
      [userId],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const rows = await this.db.all<UserRow>(
      'SELECT id, email, created_at FROM users WHERE email = $1',
      [email],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  async list(): Promise<User[]> {
    const rows = await this.db.all<UserRow>(
      'SELECT id, email, created_at FROM users ORDER BY created_at, id',
    );
    return rows.map(toUser);
  }
}

function toUser(row: UserRow): User {
  return { userId: row.id, email: row.email, createdAt: iso(row.created_at) };
}
