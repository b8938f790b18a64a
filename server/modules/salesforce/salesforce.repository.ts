import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

/** The user's Salesforce connection, with the sealed tokens the jobs use. */
export async function findSalesforceConnection(db: DbExecutor, userId: string) {
  return db.selectFrom('salesforce_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Keeps a sign-in under way: the sealed PKCE verifier under the hash of its state, until it expires. */
export async function saveSignIn(
  db: DbExecutor,
  signIn: { stateHash: string; userId: string; verifierSealed: string; logCalls: boolean; expiresAt: Date },
  now: Date,
): Promise<void> {
  // The user's expired sign-ins go as a new one starts: nothing else needs them.
  await db
    .deleteFrom('salesforce_sign_ins')
    .where('user_id', '=', signIn.userId)
    .where('expires_at', '<', now)
    .execute();
  await db
    .insertInto('salesforce_sign_ins')
    .values({
      state_hash: signIn.stateHash,
      user_id: signIn.userId,
      verifier_sealed: signIn.verifierSealed,
      log_calls: signIn.logCalls,
      expires_at: signIn.expiresAt,
    })
    .execute();
}

/** Takes the user's sign-in with this state (once: it is deleted), if it has not expired. */
export async function takeSignIn(db: DbExecutor, userId: string, stateHash: string, now: Date) {
  const taken = await db
    .deleteFrom('salesforce_sign_ins')
    .where('state_hash', '=', stateHash)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return taken && taken.expires_at > now ? taken : undefined;
}

/** Connects (or connects again: the state of the old connection goes with it). */
export async function saveSalesforceConnection(
  db: DbExecutor,
  userId: string,
  connection: {
    instanceUrl: string;
    accessTokenSealed: string;
    refreshTokenSealed: string;
    organizationId: string;
    salesforceUserId: string;
    username: string;
    displayName: string | null;
    logCalls: boolean;
  },
  now: Date,
): Promise<void> {
  const values = {
    instance_url: connection.instanceUrl.slice(0, 300),
    access_token_sealed: connection.accessTokenSealed,
    refresh_token_sealed: connection.refreshTokenSealed,
    organization_id: connection.organizationId.slice(0, 40),
    salesforce_user_id: connection.salesforceUserId.slice(0, 40),
    username: connection.username.slice(0, 200),
    display_name: connection.displayName?.slice(0, 200) ?? null,
    log_calls: connection.logCalls,
    connected_at: now,
  };
  await db
    .insertInto('salesforce_connections')
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

/** Keeps a refreshed access token (and the instance, which an org migration can move). */
export async function saveRefreshedToken(
  db: DbExecutor,
  userId: string,
  refreshed: { accessTokenSealed: string; instanceUrl: string },
): Promise<void> {
  await db
    .updateTable('salesforce_connections')
    .set({
      access_token_sealed: refreshed.accessTokenSealed,
      instance_url: refreshed.instanceUrl.slice(0, 300),
    })
    .where('user_id', '=', userId)
    .execute();
}

/** Changes whether calls are logged; false when the user has no connection. */
export async function updateSalesforceChoices(
  db: DbExecutor,
  userId: string,
  choices: { logCalls?: boolean | undefined },
): Promise<boolean> {
  if (choices.logCalls === undefined) return (await findSalesforceConnection(db, userId)) !== undefined;
  const result = await db
    .updateTable('salesforce_connections')
    .set({ log_calls: choices.logCalls })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Disconnects; answers the sealed refresh token, to revoke it at Salesforce. */
export async function deleteSalesforceConnection(db: DbExecutor, userId: string) {
  return db
    .deleteFrom('salesforce_connections')
    .where('user_id', '=', userId)
    .returning('refresh_token_sealed')
    .executeTakeFirst();
}

/**
 * Marks an import started, unless one is running (false then): decided by one conditional update, so two asked at
 * once start one.
 */
export async function startSalesforceImport(db: DbExecutor, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('salesforce_connections')
    .set({ import_status: 'running', import_at: now, import_summary: null })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('import_status', 'is', null), eb('import_status', '<>', 'running')]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function finishSalesforceImport(
  db: DbExecutor,
  userId: string,
  outcome: { status: 'done' | 'failed'; summary: string; at: Date },
): Promise<void> {
  await db
    .updateTable('salesforce_connections')
    .set({
      import_status: outcome.status,
      import_at: outcome.at,
      import_summary: outcome.summary.slice(0, 500),
    })
    .where('user_id', '=', userId)
    .execute();
}

/** Salesforce's words about the last thing that failed (a call not logged, a connection refused). */
export async function recordSalesforceError(db: DbExecutor, userId: string, error: string, at: Date) {
  await db
    .updateTable('salesforce_connections')
    .set({ last_error: error.slice(0, 500), last_error_at: at })
    .where('user_id', '=', userId)
    .execute();
}

/** Whether this saved outcome is already a Task in Salesforce. */
export async function isCallLogged(db: DbExecutor, dispositionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('salesforce_logged_calls')
    .select('disposition_id')
    .where('disposition_id', '=', dispositionId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a call logged as a Task, once, and counts it on the connection (clearing its last error). */
export async function recordCallLogged(
  db: DbExecutor,
  logged: { userId: string; dispositionId: string; taskId: string; whoId: string; at: Date },
): Promise<void> {
  const inserted = await db
    .insertInto('salesforce_logged_calls')
    .values({
      disposition_id: logged.dispositionId,
      user_id: logged.userId,
      task_id: logged.taskId.slice(0, 40),
      who_id: logged.whoId.slice(0, 40),
      logged_at: logged.at,
    })
    .onConflict((oc) => oc.column('disposition_id').doNothing())
    .returning('disposition_id')
    .executeTakeFirst();
  if (!inserted) return;
  await db
    .updateTable('salesforce_connections')
    .set({
      calls_logged: sql`calls_logged + 1`,
      last_logged_at: logged.at,
      last_error: null,
      last_error_at: null,
    })
    .where('user_id', '=', logged.userId)
    .execute();
}
