import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, withActor, type Db } from './database.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';

let db: TestDatabase;
let app: Db;
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];

beforeAll(async () => {
  db = await createTestDatabase();
  app = createDb(db.appUrl, 2);
  for (const [i, id] of ids.entries()) {
    await db.admin.query(`insert into auth_users (id, email) values ($1, $2)`, [id, `p${i}@example.com`]);
    await db.admin.query(`insert into user_profiles (id, email, role) values ($1, $2, 'user')`, [
      id,
      `p${i}@example.com`,
    ]);
  }
});
afterAll(async () => {
  await app.destroy();
  await db.drop();
});

describe('the application database role', () => {
  it('is neither superuser nor owner of the tables, and cannot bypass row-level security', async () => {
    const role = await sql<{ rolsuper: boolean; rolbypassrls: boolean; owns: number }>`
      select r.rolsuper, r.rolbypassrls,
        (select count(*)::int from pg_tables t where t.schemaname = 'public' and t.tableowner = current_user) as owns
      from pg_roles r where r.rolname = current_user`.execute(app);
    expect(role.rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, owns: 0 });
  });

  it('sees only its own profile when acting for a user, every profile when acting as admin, none without an actor', async () => {
    const own = await withActor(app, { kind: 'user', userId: ids[0]! }, (trx) =>
      trx.selectFrom('user_profiles').select('id').execute(),
    );
    expect(own.map((r) => r.id)).toEqual([ids[0]]);
    const all = await withActor(app, { kind: 'admin', userId: ids[1]! }, (trx) =>
      trx.selectFrom('user_profiles').select('id').execute(),
    );
    expect(all.map((r) => r.id).sort()).toEqual([...ids].sort());
    const none = await app.selectFrom('user_profiles').select('id').execute();
    expect(none).toEqual([]);
  });

  it("cannot change another user's profile when acting for a user", async () => {
    const updated = await withActor(app, { kind: 'user', userId: ids[0]! }, (trx) =>
      trx.updateTable('user_profiles').set({ role: 'admin' }).where('id', '=', ids[1]!).executeTakeFirst(),
    );
    expect(Number(updated.numUpdatedRows)).toBe(0);
  });

  it('keeps each user to their own contacts even when a query forgets to filter', async () => {
    await db.admin.query(
      `insert into contacts (user_id, first_name, last_name) values ($1, 'Mine', 'A'), ($2, 'Theirs', 'B')`,
      ids,
    );
    const seen = await withActor(app, { kind: 'user', userId: ids[0]! }, (trx) =>
      trx.selectFrom('contacts').select('first_name').execute(),
    );
    expect(seen.map((r) => r.first_name)).toEqual(['Mine']);
    const asSystem = await withActor(app, { kind: 'system' }, (trx) =>
      trx.selectFrom('contacts').select('first_name').execute(),
    );
    expect(asSystem).toEqual([]);
    await expect(
      withActor(app, { kind: 'user', userId: ids[0]! }, (trx) =>
        trx
          .insertInto('contacts')
          .values({ user_id: ids[1]!, first_name: 'Planted', last_name: 'C' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('may ask the owner for a fresh sample of the contacts, and nothing else runs as the owner for it', async () => {
    await sql`select refresh_contact_statistics()`.execute(app);
    const granted = await sql<{ role: boolean; others: boolean; definers: number }>`
      select has_function_privilege(current_user, 'refresh_contact_statistics()', 'execute') as role,
             has_function_privilege('public', 'refresh_contact_statistics()', 'execute') as others,
             (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
              where n.nspname = 'public' and p.prosecdef) as definers`.execute(app);
    expect(granted.rows[0]).toEqual({ role: true, others: false, definers: 1 });
  });

  it('cannot alter the schema', async () => {
    await expect(sql`alter table user_profiles add column sneaky text`.execute(app)).rejects.toThrow(
      /must be owner/,
    );
  });
});
