import type { ChangeEvent } from '#domain/realtime/change-event.ts';
import type { DbExecutor } from '../db/database.ts';
import { insertChangeNotice } from './change-notices.repository.ts';

/**
 * Announces a change by hand, as the notify triggers do (seen once the caller's transaction commits): for work
 * that held the per-row notices back (an import announces itself once, at the end).
 */
export async function announceChange(db: DbExecutor, event: ChangeEvent): Promise<void> {
  await insertChangeNotice(db, JSON.stringify(event));
}
