import { sql, type Kysely } from 'kysely';

/**
 * An API key request's check in one statement, as a session's is (session_viewer, migration 0050; decision 039):
 * api_key_viewer counts the use against the key's window (a window older than `window_seconds` starts again at this
 * use; the last use is now) and returns the key with its account's profile. It acts as the system for its own
 * duration only (the SET clause), as the key check did in its own transaction; it is not security definer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function api_key_viewer(key_hash text, used_at timestamptz, window_seconds integer)
    returns table (
      key_id uuid,
      key_user_id uuid,
      key_scope text,
      key_window_started_at timestamptz,
      key_window_count integer,
      profile_email text,
      first_name text,
      last_name text,
      role text,
      deactivated_at timestamptz,
      profile_created_at timestamptz,
      time_zone text,
      phone_country text
    )
    language sql volatile
    set app.actor = 'system'
    set app.user_id = ''
    as $$
      with used as (
        update api_keys set
          window_started_at = case when window_started_at <= used_at - make_interval(secs => window_seconds)
            then used_at else window_started_at end,
          window_count = case when window_started_at <= used_at - make_interval(secs => window_seconds)
            then 1 else window_count + 1 end,
          last_used_at = used_at
        where token_hash = key_hash
        returning id, user_id, scope, window_started_at, window_count
      )
      select u.id, u.user_id, u.scope, u.window_started_at, u.window_count, p.email, p.first_name, p.last_name,
             p.role, p.deactivated_at, p.created_at, p.time_zone, p.phone_country
      from used u
      left join user_profiles p on p.id = u.user_id
    $$;
  `.execute(db);
}
