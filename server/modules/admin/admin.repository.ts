import { sql } from 'kysely';
import {
  ACCOUNTS_PAGE_SIZE,
  type AccountsPage,
  type AccountStatusFilter,
  type AdminStats,
} from '#domain/admin/admin.schema.ts';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { PROFILE_COLUMNS, toProfile } from '../profiles/public.ts';

export async function getAdminStats(db: DbExecutor): Promise<AdminStats> {
  const row = await db
    .selectFrom('user_profiles')
    .select([
      sql<number>`count(*)::int`.as('total'),
      sql<number>`count(*) filter (where role = 'pending')::int`.as('pending'),
      sql<number>`count(*) filter (where role in ('user', 'admin'))::int`.as('approved'),
      sql<number>`count(*) filter (where role = 'denied')::int`.as('denied'),
      sql<number>`count(*) filter (where deactivated_at is not null)::int`.as('deactivated'),
    ])
    .executeTakeFirstOrThrow();
  return {
    totalUsers: row.total,
    pendingApproval: row.pending,
    approvedUsers: row.approved,
    deniedUsers: row.denied,
    deactivatedUsers: row.deactivated,
  };
}

export async function findPendingProfiles(db: DbExecutor): Promise<Profile[]> {
  const rows = await db
    .selectFrom('user_profiles')
    .select(PROFILE_COLUMNS)
    .where('role', '=', 'pending')
    .orderBy('created_at', 'desc')
    .limit(500)
    .execute();
  return rows.map(toProfile);
}

export async function findAccounts(
  db: DbExecutor,
  query: { search?: string | undefined; status: AccountStatusFilter; page: number },
): Promise<AccountsPage> {
  let base = db.selectFrom('user_profiles');
  if (query.status === 'approved')
    base = base.where('role', 'in', ['user', 'admin']).where('deactivated_at', 'is', null);
  if (query.status === 'pending') base = base.where('role', '=', 'pending');
  if (query.status === 'denied') base = base.where('role', '=', 'denied');
  if (query.status === 'deactivated') base = base.where('deactivated_at', 'is not', null);
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where(sql<boolean>`(email || ' ' || first_name || ' ' || last_name) ilike ${pattern}`);
  }
  // One after the other: the transaction's queries share one connection.
  const rows = await base
    .select(PROFILE_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(ACCOUNTS_PAGE_SIZE)
    .offset((query.page - 1) * ACCOUNTS_PAGE_SIZE)
    .execute();
  const count = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { users: rows.map(toProfile), total: count.n, page: query.page, pageSize: ACCOUNTS_PAGE_SIZE };
}

export async function findSystemOutbox(db: DbExecutor, limit: number) {
  return db
    .selectFrom('outbox_messages')
    .select(['id', 'kind', 'to_address', 'subject', 'text_body', 'created_at'])
    .where('user_id', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
