import { sql, type Kysely } from 'kysely';

/**
 * The planner's statistics of contacts and queue_members refreshed on request (decision 042). A user whose contacts
 * arrived after the tables were last sampled is, to the planner, a user with next to none: row security's
 * `user_id = ...` then looks like the cheapest way to find one contact by its key, and sending a campaign read half
 * the user's contacts per message. Autovacuum samples a large table only after a tenth of it changed, so an import
 * asks for the sample itself. The application's role cannot ANALYZE tables it does not own; this function runs as
 * the owner (security definer, with a fixed search path) and does nothing else. The app role is granted EXECUTE at
 * start (server/db/database.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function refresh_contact_statistics() returns void
    language plpgsql security definer
    set search_path = pg_catalog, public
    as $$
    begin
      analyze public.contacts;
      analyze public.queue_members;
    end
    $$;
    revoke all on function refresh_contact_statistics() from public;
  `.execute(db);
}
