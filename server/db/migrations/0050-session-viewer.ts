import { sql, type Kysely } from 'kysely';

/**
 * The session check in one statement (decision 039). Every signed-in request looked up its session through
 * better-auth and then read the account's profile in a transaction acting as the system: six round trips to the
 * database before the route's own work. session_viewer returns the session and its account's profile together. It
 * acts as the system for its own duration only (the SET clause is undone when it returns), which is what the profile's
 * row-level security asks of a session check; it is not security definer, so the caller's grants still apply.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function session_viewer(session_token text)
    returns table (
      user_id uuid,
      expires_at timestamptz,
      profile_email text,
      first_name text,
      last_name text,
      role text,
      deactivated_at timestamptz,
      profile_created_at timestamptz,
      time_zone text,
      phone_country text
    )
    language sql stable
    set app.actor = 'system'
    set app.user_id = ''
    as $$
      select s.user_id, s.expires_at, p.email, p.first_name, p.last_name, p.role, p.deactivated_at,
             p.created_at, p.time_zone, p.phone_country
      from auth_sessions s
      left join user_profiles p on p.id = s.user_id
      where s.token = session_token
    $$;
  `.execute(db);
}
