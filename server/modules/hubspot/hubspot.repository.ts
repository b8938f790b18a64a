import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

/** The user's HubSpot connection, with the sealed token the jobs use. */
export async function findHubspotConnection(db: DbExecutor, userId: string) {
  return db.selectFrom('hubspot_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Connects (or connects again with another token: the state of the old connection goes with it). */
export async function saveHubspotConnection(
  db: DbExecutor,
  userId: string,
  connection: {
    tokenSealed: string;
    portalId: string;
    accountDomain: string | null;
    logCalls: boolean;
    createMissing: boolean;
  },
  now: Date,
): Promise<void> {
  const values = {
    token_sealed: connection.tokenSealed,
    portal_id: connection.portalId.slice(0, 40),
    account_domain: connection.accountDomain?.slice(0, 200) ?? null,
    log_calls: connection.logCalls,
    create_missing: connection.createMissing,
    connected_at: now,
  };
  await db
    .insertInto('hubspot_connections')
    .values({ user_id: userId, ...values })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        ...values,
        import_status: null,
        import_at: null,
        import_summary: null,
        calls_logged: 0,
        last_logged_at: null,
        last_error: null,
        last_error_at: null,
      }),
    )
    .execute();
}

/** Changes the choices; false when the user has no connection. */
export async function updateHubspotChoices(
  db: DbExecutor,
  userId: string,
  choices: { logCalls?: boolean | undefined; createMissing?: boolean | undefined },
): Promise<boolean> {
  const set = {
    ...(choices.logCalls !== undefined && { log_calls: choices.logCalls }),
    ...(choices.createMissing !== undefined && { create_missing: choices.createMissing }),
  };
  if (Object.keys(set).length === 0) return (await findHubspotConnection(db, userId)) !== undefined;
  const result = await db
    .updateTable('hubspot_connections')
    .set(set)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteHubspotConnection(db: DbExecutor, userId: string): Promise<void> {
  await db.deleteFrom('hubspot_connections').where('user_id', '=', userId).execute();
}

/**
 * Marks an import started, unless one is running (false then): decided by one conditional update, so two asked at
 * once start one.
 */
export async function startHubspotImport(db: DbExecutor, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('hubspot_connections')
    .set({ import_status: 'running', import_at: now, import_summary: null })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('import_status', 'is', null), eb('import_status', '<>', 'running')]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function finishHubspotImport(
  db: DbExecutor,
  userId: string,
  outcome: { status: 'done' | 'failed'; summary: string; at: Date },
): Promise<void> {
  await db
    .updateTable('hubspot_connections')
    .set({
      import_status: outcome.status,
      import_at: outcome.at,
      import_summary: outcome.summary.slice(0, 500),
    })
    .where('user_id', '=', userId)
    .execute();
}

/** HubSpot's words about the last thing that failed (a call not logged, a token refused). */
export async function recordHubspotError(db: DbExecutor, userId: string, error: string, at: Date) {
  await db
    .updateTable('hubspot_connections')
    .set({ last_error: error.slice(0, 500), last_error_at: at })
    .where('user_id', '=', userId)
    .execute();
}

/** Whether this saved outcome is already logged in HubSpot. */
export async function isCallLogged(db: DbExecutor, dispositionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('hubspot_logged_calls')
    .select('disposition_id')
    .where('disposition_id', '=', dispositionId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a call logged in HubSpot, once, and counts it on the connection (clearing its last error). */
export async function recordCallLogged(
  db: DbExecutor,
  logged: {
    userId: string;
    dispositionId: string;
    hubspotCallId: string;
    hubspotContactId: string;
    at: Date;
  },
): Promise<void> {
  const inserted = await db
    .insertInto('hubspot_logged_calls')
    .values({
      disposition_id: logged.dispositionId,
      user_id: logged.userId,
      hubspot_call_id: logged.hubspotCallId.slice(0, 40),
      hubspot_contact_id: logged.hubspotContactId.slice(0, 40),
      logged_at: logged.at,
    })
    .onConflict((oc) => oc.column('disposition_id').doNothing())
    .returning('disposition_id')
    .executeTakeFirst();
  if (!inserted) return;
  await db
    .updateTable('hubspot_connections')
    .set({
      calls_logged: sql`calls_logged + 1`,
      last_logged_at: logged.at,
      last_error: null,
      last_error_at: null,
    })
    .where('user_id', '=', logged.userId)
    .execute();
}
