import { DISPOSITION_LABELS, type Disposition } from '#domain/calls/disposition.ts';
import type { DuplicateMode } from '#domain/contacts/contact-import.ts';
import {
  SALESFORCE_IMPORT_MAPPING,
  salesforceImportQuery,
  salesforceMatchQueries,
  salesforceRecordCells,
  salesforceRetryable,
  salesforceTaskBody,
  type SalesforceObject,
} from '#domain/salesforce/salesforce.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { findOutcomeToLog } from '../calls/public.ts';
import { ImportFileError, runImport, type FileRow } from '../contact-import/public.ts';
import { notifyUser } from '../notifications/public.ts';
import { SalesforceError, salesforceRest } from './salesforce-client.ts';
import {
  finishSalesforceImport,
  findSalesforceConnection,
  isCallLogged,
  recordCallLogged,
  recordSalesforceError,
  saveRefreshedToken,
} from './salesforce.repository.ts';

/** Job names: a saved outcome to log as a Salesforce Task (queued by migration 0047's trigger), an import. */
export const SALESFORCE_LOG_CALL_TASK = 'salesforce-log-call';
export const SALESFORCE_IMPORT_TASK = 'salesforce-import';

type Ctx = Pick<
  AppContext,
  'db' | 'pool' | 'bulkPool' | 'clock' | 'instanceId' | 'secretBox' | 'salesforce' | 'readCpuStalledMicros'
>;
type Connection = NonNullable<Awaited<ReturnType<typeof findSalesforceConnection>>>;

const asUser = <T>(ctx: Ctx, userId: string, work: Parameters<typeof withActor<T>>[2]) =>
  withActor(ctx.db, { kind: 'user', userId }, work);

/** The org's REST API for this connection; a refreshed access token is kept, sealed, for the next job. */
function restFor(ctx: Ctx, userId: string, connection: Connection) {
  return salesforceRest(
    ctx.salesforce!,
    {
      accessToken: ctx.secretBox.open(connection.access_token_sealed),
      refreshToken: ctx.secretBox.open(connection.refresh_token_sealed),
      instanceUrl: connection.instance_url,
    },
    (accessToken, instanceUrl) =>
      asUser(ctx, userId, (trx) =>
        saveRefreshedToken(trx, userId, { accessTokenSealed: ctx.secretBox.seal(accessToken), instanceUrl }),
      ),
  );
}

/**
 * Records Salesforce's words on the card; when Salesforce refused the connection itself (the refresh token revoked
 * or expired), the user is also told once for this connection, since nothing reaches Salesforce until they connect
 * again.
 */
async function recordFailure(ctx: Ctx, userId: string, connectedAt: Date, error: SalesforceError) {
  await asUser(ctx, userId, async (trx) => {
    await recordSalesforceError(trx, userId, error.message, ctx.clock());
    if (error.refused)
      await notifyUser(trx, {
        userId,
        kind: 'integration-failed',
        subject: `salesforce:${connectedAt.toISOString()}`,
        title: 'Salesforce refused the connection',
        body: `${error.message}. Calls are not logged in Salesforce until you connect again in Settings → Integrations → Salesforce.`,
        link: '/settings?tab=integrations',
      });
  });
}

/**
 * Logs one saved outcome as a completed call Task on the matching Contact, else open Lead (decision 037), matched
 * by e-mail or phone; when none matches the card says which call was not logged and why. Logged once: a run again
 * finds it logged. Salesforce refusing for good is recorded in its words; Salesforce down or the org's request limit
 * is recorded and tried again by the queue. Without a connected app configured (the operator removed it) nothing
 * is sent.
 */
export function salesforceLogCallTask(ctx: Ctx): JobTask {
  return async (raw) => {
    const { dispositionId, userId } = raw as { dispositionId: string; userId: string };
    if (!ctx.salesforce) return;
    const found = await asUser(ctx, userId, async (trx) => {
      const connection = await findSalesforceConnection(trx, userId);
      if (!connection?.log_calls || (await isCallLogged(trx, dispositionId))) return null;
      const outcome = await findOutcomeToLog(trx, dispositionId);
      return outcome ? { connection, outcome } : null;
    });
    if (!found) return;
    const { connection, outcome } = found;
    const rest = restFor(ctx, userId, connection);
    const name = [outcome.first_name, outcome.last_name].filter(Boolean).join(' ');
    try {
      let whoId: string | undefined;
      for (const soql of salesforceMatchQueries(outcome.email, outcome.phone_e164)) {
        const id = (await rest.query(soql)).records[0]?.Id;
        if (typeof id === 'string') {
          whoId = id;
          break;
        }
      }
      if (!whoId) {
        await asUser(ctx, userId, (trx) =>
          recordSalesforceError(
            trx,
            userId,
            `A call with ${name || 'a deleted contact'} was not logged: no Salesforce Contact or open Lead has its e-mail or phone number.`,
            ctx.clock(),
          ),
        );
        return;
      }
      const label = DISPOSITION_LABELS[outcome.disposition as Disposition] ?? outcome.disposition;
      const task = await rest.createTask(
        salesforceTaskBody(
          {
            dispositionLabel: label,
            notes: outcome.notes,
            calledAt: outcome.called_at,
            timeZone: outcome.time_zone ?? 'UTC',
            contactName: name,
            call: outcome.direction
              ? { direction: outcome.direction, durationSeconds: outcome.duration_seconds }
              : null,
          },
          whoId,
        ),
      );
      await asUser(ctx, userId, (trx) =>
        recordCallLogged(trx, { userId, dispositionId, taskId: task.id, whoId, at: ctx.clock() }),
      );
    } catch (error) {
      if (!(error instanceof SalesforceError)) throw error;
      await recordFailure(ctx, userId, connection.connected_at, error);
      if (salesforceRetryable(error.status, error.message)) throw error;
    }
  };
}

const OBJECT_NAMES: Record<SalesforceObject, string> = { Lead: 'Leads', Contact: 'Contacts' };

/**
 * Imports the org's open Leads and/or Contacts (decision 037): every page of each query (Salesforce's
 * nextRecordsUrl), each record a row of the same import a file goes through (checked, de-duplicated by e-mail and
 * phone as chosen, joined to the default queue, in the import history as "Salesforce"). The card shows how it
 * ended, in Salesforce's words when Salesforce failed; Salesforce down is tried again by the queue, and running it
 * again only skips or updates what it saved.
 */
export function salesforceImportTask(ctx: Ctx): JobTask {
  return async (raw) => {
    const { userId, duplicates, objects } = raw as {
      userId: string;
      duplicates: DuplicateMode;
      objects: SalesforceObject[];
    };
    const connection = await asUser(ctx, userId, (trx) => findSalesforceConnection(trx, userId));
    if (!connection) return;
    const finish = (status: 'done' | 'failed', summary: string) =>
      asUser(ctx, userId, (trx) => finishSalesforceImport(trx, userId, { status, summary, at: ctx.clock() }));
    if (!ctx.salesforce)
      return finish('failed', 'Salesforce is no longer set up on this server; ask its operator.');
    const rest = restFor(ctx, userId, connection);
    async function* rows(): AsyncIterable<FileRow> {
      let row = 0;
      for (const object of objects) {
        let page = await rest.query(salesforceImportQuery(object));
        for (;;) {
          for (const record of page.records) yield { row: ++row, cells: salesforceRecordCells(record) };
          if (page.done || !page.nextRecordsUrl) break;
          page = await rest.queryMore(page.nextRecordsUrl);
        }
      }
    }
    const what = objects.map((o) => OBJECT_NAMES[o]).join(' and ');
    try {
      const report = await runImport(
        ctx,
        {
          userId,
          fileName: `Salesforce ${what} (${connection.username})`,
          format: 'salesforce',
          rows: rows(),
          unreadable: [],
          mapping: SALESFORCE_IMPORT_MAPPING,
          hasHeader: false,
          duplicates,
        },
        () => undefined,
      );
      const count = (n: number) => n.toLocaleString('en-US');
      await finish(
        'done',
        `${count(report.totalRows)} Salesforce ${what}: ${count(report.created)} new, ` +
          `${count(report.updated)} updated, ${count(report.skipped)} skipped.`,
      );
    } catch (error) {
      const cause = error instanceof ImportFileError ? error.cause : error;
      if (cause instanceof SalesforceError) {
        await finish('failed', cause.message);
        await recordFailure(ctx, userId, connection.connected_at, cause);
        if (salesforceRetryable(cause.status, cause.message)) throw cause;
        return;
      }
      if (error instanceof ImportFileError) return finish('failed', error.message);
      await finish('failed', 'The import failed; it will be tried again.');
      throw error;
    }
  };
}
