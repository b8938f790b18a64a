import { staleOutcome, STALE_SETUP_MS } from '#domain/calls/call-status.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { closeCall, findUnfinishedCalls } from './calls.repository.ts';

/**
 * Closes calls the provider never reported back on ("a call that never hears back is closed after a
 * bounded time"; the rule is domain staleOutcome). Run by the janitor (instance/janitor.ts); closing is conditional.
 */
export async function closeStaleCalls(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock();
  return withActor(ctx.db, { kind: 'system' }, async (trx) => {
    const candidates = await findUnfinishedCalls(trx, new Date(now.getTime() - STALE_SETUP_MS));
    let closed = 0;
    for (const call of candidates) {
      const outcome = staleOutcome({ status: call.status, updatedAt: call.updated_at }, now);
      if (!outcome) continue;
      await closeCall(trx, call.id, outcome.status, outcome.reason, now);
      closed += 1;
    }
    return closed;
  });
}
