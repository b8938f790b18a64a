import { z } from 'zod';

/**
 * What a connected CRM of record (HubSpot, Salesforce) shows the same way: how its last import went and the calls
 * logged there, with the last failure in the service's own words.
 */
export const CrmSyncStateSchema = z.object({
  importStatus: z.enum(['running', 'done', 'failed']).nullable(),
  importAt: z.iso.datetime().nullable(),
  importSummary: z.string().nullable(),
  lastLoggedAt: z.iso.datetime().nullable(),
  callsLogged: z.number().int(),
  lastError: z.string().nullable(),
  lastErrorAt: z.iso.datetime().nullable(),
});
export type CrmSyncState = z.infer<typeof CrmSyncStateSchema>;

/** The sync state columns of a CRM connection row, as the API shows them. */
export function crmSyncStateOf(row: {
  import_status: 'running' | 'done' | 'failed' | null;
  import_at: Date | null;
  import_summary: string | null;
  last_logged_at: Date | null;
  calls_logged: number;
  last_error: string | null;
  last_error_at: Date | null;
}): CrmSyncState {
  return {
    importStatus: row.import_status,
    importAt: row.import_at?.toISOString() ?? null,
    importSummary: row.import_summary,
    lastLoggedAt: row.last_logged_at?.toISOString() ?? null,
    callsLogged: row.calls_logged,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at?.toISOString() ?? null,
  };
}
