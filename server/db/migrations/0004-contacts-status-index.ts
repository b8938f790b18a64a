import { sql, type Kysely } from 'kysely';

/** The status filter at a million contacts (bench/RESULTS.md): its own index in list order. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index contacts_user_status_idx on contacts (user_id, status, created_at desc, id desc)`.execute(
    db,
  );
}
