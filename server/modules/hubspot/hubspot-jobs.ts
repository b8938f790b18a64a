import { DISPOSITION_LABELS, type Disposition } from '#domain/calls/disposition.ts';
import {
  HUBSPOT_IMPORT_MAPPING,
  hubspotCallBody,
  hubspotContactCells,
  hubspotContactSearch,
  hubspotNewContact,
  hubspotRetryable,
} from '#domain/hubspot/hubspot.ts';
import type { DuplicateMode } from '#domain/contacts/contact-import.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { ImportFileError, runImport, type FileRow } from '../contact-import/public.ts';
import { notifyUser } from '../notifications/public.ts';
import { findOutcomeToLog } from '../calls/public.ts';
import { HubSpotError, hubspotClient } from './hubspot-client.ts';
import {
  finishHubspotImport,
  findHubspotConnection,
  isCallLogged,
  recordCallLogged,
  recordHubspotError,
} from './hubspot.repository.ts';

/** Job names: a saved outcome to log as a HubSpot call (queued by migration 0045's trigger), an import. */
export const HUBSPOT_LOG_CALL_TASK = 'hubspot-log-call';
export const HUBSPOT_IMPORT_TASK = 'hubspot-import';

type Ctx = Pick<
  AppContext,
  'db' | 'pool' | 'bulkPool' | 'clock' | 'instanceId' | 'secretBox' | 'hubspotApiUrl' | 'readCpuStalledMicros'
>;

/**
 * Records HubSpot's words on the card; when HubSpot refused the token itself (401: revoked, or the private app
 * deleted), the user is also told once for this connection, since nothing will reach HubSpot until they connect
 * again.
 */
async function recordFailure(
  ctx: Ctx,
  userId: string,
  connectedAt: Date,
  error: HubSpotError,
): Promise<void> {
  await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    await recordHubspotError(trx, userId, error.message, ctx.clock());
    if (error.status === 401)
      await notifyUser(trx, {
        userId,
        kind: 'integration-failed',
        subject: `hubspot:${connectedAt.toISOString()}`,
        title: 'HubSpot refused the connection',
        body: `${error.message}. Calls are not logged in HubSpot until you connect again with a new token in Settings → Integrations → HubSpot.`,
        link: '/settings?tab=integrations',
      });
  });
}

/**
 * Logs one saved outcome as a call on the matching HubSpot contact (decision 036): found by e-mail or phone, made
 * when none matches and the user chose that, else the card says why nothing was logged. Logged once: a run again
 * finds it logged. HubSpot refusing for good (a revoked token, a bad request) is recorded in its words; a rate limit
 * or HubSpot down is recorded and tried again by the queue.
 */
export function hubspotLogCallTask(ctx: Ctx): JobTask {
  return async (raw) => {
    const { dispositionId, userId } = raw as { dispositionId: string; userId: string };
    const asUser = <T>(work: Parameters<typeof withActor<T>>[2]) =>
      withActor(ctx.db, { kind: 'user', userId }, work);
    const found = await asUser(async (trx) => {
      const connection = await findHubspotConnection(trx, userId);
      if (!connection?.log_calls || (await isCallLogged(trx, dispositionId))) return null;
      const outcome = await findOutcomeToLog(trx, dispositionId);
      return outcome ? { connection, outcome } : null;
    });
    if (!found) return;
    const { connection, outcome } = found;
    const client = hubspotClient(ctx.hubspotApiUrl, ctx.secretBox.open(connection.token_sealed));
    const name = [outcome.first_name, outcome.last_name].filter(Boolean).join(' ');
    try {
      const search = hubspotContactSearch(outcome.email, outcome.phone_e164);
      let contactId = search ? (await client.searchContacts(search)).results[0]?.id : undefined;
      if (!contactId && connection.create_missing && outcome.first_name !== null)
        contactId = (
          await client.createContact(
            hubspotNewContact({
              firstName: outcome.first_name,
              lastName: outcome.last_name ?? '',
              email: outcome.email,
              phone: outcome.phone_e164,
              company: outcome.company,
              title: outcome.title,
            }),
          )
        ).id;
      if (!contactId) {
        await asUser((trx) =>
          recordHubspotError(
            trx,
            userId,
            `A call with ${name || 'a deleted contact'} was not logged: no HubSpot contact has its e-mail or phone number.`,
            ctx.clock(),
          ),
        );
        return;
      }
      const created = await client.createCall(
        hubspotCallBody(
          {
            disposition: outcome.disposition,
            dispositionLabel: DISPOSITION_LABELS[outcome.disposition as Disposition] ?? outcome.disposition,
            notes: outcome.notes,
            calledAt: outcome.called_at,
            contactName: name,
            call: outcome.direction
              ? {
                  direction: outcome.direction,
                  status: outcome.status ?? 'completed',
                  from: outcome.from_number ?? '',
                  to: outcome.to_number ?? '',
                  durationSeconds: outcome.duration_seconds,
                }
              : null,
          },
          contactId,
        ),
      );
      await asUser((trx) =>
        recordCallLogged(trx, {
          userId,
          dispositionId,
          hubspotCallId: created.id,
          hubspotContactId: contactId,
          at: ctx.clock(),
        }),
      );
    } catch (error) {
      if (!(error instanceof HubSpotError)) throw error;
      await recordFailure(ctx, userId, connection.connected_at, error);
      if (hubspotRetryable(error.status)) throw error;
    }
  };
}

/**
 * Imports the HubSpot account's contacts (decision 036): every page, each contact a row of the same import a file
 * goes through (checked, de-duplicated by e-mail and phone as chosen, joined to the default queue, in the import
 * history as "HubSpot"). The card shows how it ended, in HubSpot's words when HubSpot failed; a rate limit or HubSpot
 * down is tried again by the queue, and running it again only skips or updates what it saved.
 */
export function hubspotImportTask(ctx: Ctx): JobTask {
  return async (raw) => {
    const { userId, duplicates } = raw as { userId: string; duplicates: DuplicateMode };
    const asUser = <T>(work: Parameters<typeof withActor<T>>[2]) =>
      withActor(ctx.db, { kind: 'user', userId }, work);
    const connection = await asUser((trx) => findHubspotConnection(trx, userId));
    if (!connection) return;
    const client = hubspotClient(ctx.hubspotApiUrl, ctx.secretBox.open(connection.token_sealed));
    async function* rows(): AsyncIterable<FileRow> {
      let after: string | undefined;
      let row = 0;
      do {
        const page = await client.contacts(after);
        for (const contact of page.results)
          yield { row: ++row, cells: hubspotContactCells(contact.properties) };
        after = page.paging?.next?.after;
      } while (after);
    }
    const finish = (status: 'done' | 'failed', summary: string) =>
      asUser((trx) => finishHubspotImport(trx, userId, { status, summary, at: ctx.clock() }));
    try {
      const report = await runImport(
        ctx,
        {
          userId,
          fileName: `HubSpot account ${connection.portal_id}`,
          format: 'hubspot',
          rows: rows(),
          unreadable: [],
          mapping: HUBSPOT_IMPORT_MAPPING,
          hasHeader: false,
          duplicates,
        },
        () => undefined,
      );
      await finish(
        'done',
        `${report.totalRows.toLocaleString('en-US')} HubSpot contacts: ${report.created.toLocaleString('en-US')} new, ` +
          `${report.updated.toLocaleString('en-US')} updated, ${report.skipped.toLocaleString('en-US')} skipped.`,
      );
    } catch (error) {
      const cause = error instanceof ImportFileError ? error.cause : error;
      if (cause instanceof HubSpotError) {
        await finish('failed', cause.message);
        await recordFailure(ctx, userId, connection.connected_at, cause);
        if (hubspotRetryable(cause.status)) throw cause;
        return;
      }
      if (error instanceof ImportFileError) return finish('failed', error.message);
      await finish('failed', 'The import failed; it will be tried again.');
      throw error;
    }
  };
}
