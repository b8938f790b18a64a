import { staleOutcome, STALE_SETUP_MS } from '#domain/calls/call-status.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { closeCall, findUnfinishedCalls } from './calls.repository.ts';

/**
 * Closes calls the provider never reported back on (issue 5: "a call that never hears back is closed after a
 * bounded time"; the rule is domain staleOutcome). Every instance sweeps; closing is conditional, so that is safe.
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

export function startStaleCallSweeper(ctx: Pick<AppContext, 'db' | 'clock'>, everyMs = 30_000): () => void {
  const timer = setInterval(() => void closeStaleCalls(ctx).catch(() => undefined), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
