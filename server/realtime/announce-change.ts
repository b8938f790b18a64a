import type { ChangeEvent } from '#domain/realtime/change-event.ts';
import type { DbExecutor } from '../db/database.ts';
import { notifyChannel } from '../db/notify.ts';

/** The channel the notify_change trigger writes to and every instance's change hub listens on. */
export const CHANGES_CHANNEL = 'app_changes';

/**
 * Announces a change by hand, as the notify_change trigger does for each row: for work that held the per-row
 * notices back (an import announces itself once, at the end).
 */
export async function announceChange(db: DbExecutor, event: ChangeEvent): Promise<void> {
  await notifyChannel(db, CHANGES_CHANNEL, JSON.stringify(event));
}
