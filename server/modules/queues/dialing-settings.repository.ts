import type { DialingSettings } from '#domain/dialer/parallel-dialing.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/** Saves a queue's dialing mode and abandonment cap (docs/decisions/026-parallel-dialing-pacing.md). */
export async function saveDialingSettings(
  db: DbExecutor,
  queueId: string,
  settings: DialingSettings,
  now: Date,
): Promise<void> {
  await db
    .updateTable('power_dialer_queues')
    .set({
      dial_mode: settings.mode,
      abandon_cap_percent: settings.capPercent === null ? null : settings.capPercent.toFixed(1),
      last_modified: now,
    })
    .where('id', '=', queueId)
    .execute();
}
