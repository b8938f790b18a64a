import { sql, type Kysely } from 'kysely';

/**
 * Change notices without NOTIFY (decision 038). The realtime triggers sent pg_notify('app_changes') inside the
 * writer's transaction; PostgreSQL serialises every transaction that notified through one lock held until its commit
 * reached the disk, so under load every contact save, disposition and campaign count waited for the one before it to
 * flush, holding a pooled connection meanwhile. The triggers now write their notices to an unlogged table, stamped
 * with the writing transaction's id; each instance reads the notices of transactions that were not yet visible at its
 * previous look (server/realtime/change-feed.ts), a few times a second. Notices are hints for open pages and never
 * survive a database crash (as NOTIFY's did not), so the table is unlogged: writing one costs no WAL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table change_notices (
      id bigint generated always as identity primary key,
      xid xid8 not null default pg_current_xact_id(),
      payload text not null,
      created_at timestamptz not null default now()
    );
    create index change_notices_xid_idx on change_notices (xid);

    create or replace function notify_change() returns trigger language plpgsql as $$
    declare
      rec jsonb := to_jsonb(coalesce(new, old));
    begin
      insert into change_notices (payload) values (json_build_object(
        'topic', tg_argv[0],
        'op', tg_op,
        'id', rec ->> 'id',
        'userId', rec ->> tg_argv[1],
        'role', rec ->> 'role',
        'deactivated', (rec ->> 'deactivated_at') is not null
      )::text);
      return null;
    end $$;

    create or replace function notify_contacts_changed() returns trigger language plpgsql as $$
    begin
      if current_setting('app.quiet', true) = 'on' then return null; end if;
      insert into change_notices (payload)
      select json_build_object('topic', 'contacts', 'op', tg_op,
          'id', case when count(*) = 1 then min(id::text) else '*' end, 'userId', user_id, 'role', null)::text
        from changed group by user_id;
      return null;
    end $$;

    create or replace function notify_owned_changes() returns trigger language plpgsql as $$
    begin
      insert into change_notices (payload)
      select json_build_object('topic', tg_argv[0], 'op', tg_op,
          'id', case when count(*) = 1 then min(id::text) else '*' end, 'userId', user_id, 'role', null)::text
        from changed group by user_id;
      return null;
    end $$;

    create or replace function notify_campaign_counts() returns trigger language plpgsql as $$
    begin
      insert into change_notices (payload)
      select json_build_object('topic', 'campaigns', 'op', tg_op, 'id', campaign_id, 'userId', user_id,
          'role', null)::text
        from (select distinct user_id, campaign_id from changed) moved;
      return null;
    end $$;

    create or replace function notify_recordings_change() returns trigger language plpgsql as $$
    begin
      insert into change_notices (payload)
      select json_build_object('topic', 'calls', 'op', tg_op, 'id', 'recordings', 'userId', user_id, 'role', null,
          'deactivated', false)::text
        from (select distinct user_id from changed) u;
      return null;
    end $$;
  `.execute(db);
}
