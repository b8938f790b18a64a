import { createAccount, type Session, type TestContext } from './test-app.ts';

/**
 * A floor where PostgreSQL last sampled the contacts before a new user's arrived: three users with 3,000 contacts
 * each, statistics taken, then a new user (returned) whose contacts the test adds. Autovacuum is off on contacts in
 * this test's database, as on a large table where an import changes too small a share of it to wake autovacuum; to
 * the planner the newcomer has next to no contacts.
 */
export async function newcomerAfterLastSample(ctx: TestContext): Promise<Session> {
  await ctx.db.admin.query('alter table contacts set (autovacuum_enabled = false)');
  for (let i = 0; i < 3; i++) {
    const veteran = await createAccount(ctx, 'user');
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email)
       select $1, 'Veteran' || g, 'Rep', 'v' || g || '@veteran.example' from generate_series(1, 3000) g`,
      [veteran.userId],
    );
  }
  const newcomer = await createAccount(ctx, 'user');
  await ctx.db.admin.query('analyze contacts');
  return newcomer;
}
