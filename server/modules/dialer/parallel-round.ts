import { randomUUID } from 'node:crypto';
import { abandonmentRate, lawfulCap, linesToDial } from '#domain/dialer/pacing.ts';
import type { ParallelState } from '#domain/dialer/parallel-dialing.schema.ts';
import type { SkippedContact } from '#domain/dialer/queue-walk.ts';
import { withActorRetryingDeadlocks, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import {
  dialRound,
  findLatestRound,
  newLineHold,
  lockOpenRound,
  pacingCounts,
  recordRound,
  settleOpenRound,
  type LineToDial,
} from '../calls/public.ts';
import { getQueueForDialing, releaseHolds, storeWalkIndex } from '../queues/public.ts';
import { takeNextContacts } from './next-contact.ts';

type Extras = { skipped?: SkippedContact[]; waiting?: ParallelState['waiting'] };

/** Where a walker stands in parallel dialing: the queue, its settings and abandonment, the next round's lines, the latest round. */
export async function parallelState(
  trx: DbExecutor,
  userId: string,
  queueId: string,
  walker: string,
  now: Date,
  extras: Extras = {},
): Promise<ParallelState> {
  const { summary: queue, settings } = await getQueueForDialing(trx, userId, queueId);
  const round = await findLatestRound(trx, userId, queue.id, walker);
  const counts = await pacingCounts(trx, queue.id, now, round?.id ?? null);
  const rate = (c: { liveAnswers: number; abandoned: number }) => ({ ...c, percent: abandonmentRate(c) });
  return {
    queue,
    settings,
    capPercent: lawfulCap(settings.capPercent),
    abandonment: { last30Days: rate(counts.last30Days), last24Hours: rate(counts.last24Hours) },
    next: linesToDial({ mode: settings.mode, capPercent: settings.capPercent, ...counts }),
    round,
    skipped: extras.skipped ?? [],
    waiting: extras.waiting ?? null,
  };
}

export const NOT_PARALLEL = 'This queue dials in Power mode: switch it to Parallel to ring several lines.';

/**
 * Starts a round for this walker (docs/decisions/026-parallel-dialing-pacing.md): under the queue's lock, the pacing
 * rule says how many lines, the walk takes that many contacts the consent gate lets the user call now (each under
 * its own line hold), and the round and its calls are recorded in the same transaction; then every line is handed to
 * the provider at once. A walker whose round is still ringing gets that round back (a second click, another
 * request racing it): never two rounds at once.
 */
export async function startRound(
  ctx: AppContext,
  userId: string,
  queueId: string,
  walker: string,
): Promise<ParallelState> {
  const started = await withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, async (trx) => {
    const now = ctx.clock();
    const { summary: queue, settings } = await getQueueForDialing(trx, userId, queueId, { lock: true });
    const open = await lockOpenRound(trx, userId, queue.id, walker);
    if (open && !(await settleOpenRound(trx, userId, open.id, now))) return { placed: [], extras: {} };
    if (settings.mode !== 'parallel') throw new AppError('CONFLICT', NOT_PARALLEL);
    // The contact this tab's power walk held (the same walker) is let go: the lines may ring it.
    await releaseHolds(trx, queue.id, walker);
    const pacing = linesToDial({
      mode: 'parallel',
      capPercent: settings.capPercent,
      ...(await pacingCounts(trx, queue.id, now)),
    });
    const roundId = randomUUID();
    const lines: (LineToDial & { walker: string })[] = [];
    const holds = Array.from({ length: pacing.lines }, () => newLineHold());
    const { taken, skipped, waiting } = await takeNextContacts(trx, userId, queue.id, holds, now);
    for (const { contact, reach, holder } of taken) {
      const to = reach?.facts.phoneE164;
      if (!to || !reach) {
        await releaseHolds(trx, queue.id, holder);
        continue;
      }
      lines.push({ contactId: contact.id, to, reach, walker: holder });
    }
    if (skipped.length > 0) await storeWalkIndex(trx, queue.id, now);
    if (lines.length === 0) return { placed: [], extras: { skipped, waiting } };
    const placed = await recordRound(
      trx,
      ctx,
      userId,
      { id: roundId, queue: { id: queue.id, projectId: queue.projectId }, walker, why: pacing.why, lines },
      now,
    );
    return { placed, extras: { skipped, waiting } };
  });
  if (started.placed.length > 0) await dialRound(ctx, userId, started.placed);
  return withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, (trx) =>
    parallelState(trx, userId, queueId, walker, ctx.clock(), started.extras),
  );
}
