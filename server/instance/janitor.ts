import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { withActor } from '../db/database.ts';
import type { AppContext } from '../app-context.ts';
import { closeCall, closeStaleCalls, findUnfinishedSimulatedCalls } from '../modules/calls/public.ts';
import {
  claimAbandonedImport,
  failAbandonedImport,
  findRunningImports,
} from '../modules/contact-import/public.ts';
import { pruneAuthAttempts } from '../modules/auth/public.ts';
import { pruneChangeNotices } from '../realtime/change-notices.repository.ts';
import {
  findInstancesHoldingJobs,
  isInstanceAlive,
  pruneIdleJobQueues,
  pruneInstances,
  registerInstance,
  touchInstance,
  tryJanitorLock,
  unlockJobsOfDeadInstance,
} from './instances.repository.ts';
import { ensureDefaultQueue, queueMissingSyncedContacts } from '../modules/queues/public.ts';

type JanitorContext = Pick<AppContext, 'db' | 'clock' | 'instanceId'>;

const ENDED_WITH_SERVER = 'The server running this simulated call stopped';

export type JanitorReport = {
  ran: boolean;
  imports: number;
  calls: number;
  staleCalls: number;
  jobs: number;
};

/**
 * Work no process owns any more (docs/decisions/011-hardening.md), closed with true counts, on start and every
 * 30 s: imports whose instance died end as failed with the counts their saved batches recorded, and the contacts
 * they saved join the default queue; simulated calls whose instance died end (the simulator ran them in that
 * process's memory, so nothing will ever report on them), freeing their numbers at once; jobs whose instance died
 * while running them are freed for another instance to run again (their tasks are safe to repeat), and named job queues left empty go; calls no provider reports
 * on are closed after their bounded time (domain staleOutcome); old sign-in attempts and change notices are forgotten.
 */
export async function recoverAbandonedWork(ctx: JanitorContext): Promise<JanitorReport> {
  const report: JanitorReport = { ran: false, imports: 0, calls: 0, staleCalls: 0, jobs: 0 };
  const now = ctx.clock();
  const claimed = await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    if (!(await tryJanitorLock(trx))) return null;
    const imports = await findRunningImports(trx);
    const calls = await findUnfinishedSimulatedCalls(trx);
    const jobHolders = await findInstancesHoldingJobs(trx);
    const owners = new Set([
      ...imports.map((i) => i.instance_id),
      ...calls.map((c) => c.instance_id),
      ...jobHolders,
    ]);
    const dead = new Set<string | null>([null]);
    for (const owner of owners) if (owner && !(await isInstanceAlive(trx, owner))) dead.add(owner);
    for (const call of calls.filter((c) => dead.has(c.instance_id))) {
      await closeCall(
        trx,
        call.id,
        // Never answered: canceled (we ended it), so a dialer's round puts the contact back in its queue.
        call.status === 'in-progress' ? 'completed' : 'canceled',
        ENDED_WITH_SERVER,
        now,
      );
      report.calls += 1;
    }
    for (const holder of jobHolders.filter((h) => dead.has(h)))
      report.jobs += await unlockJobsOfDeadInstance(trx, holder);
    await pruneIdleJobQueues(trx);
    await pruneAuthAttempts(trx, now);
    await pruneChangeNotices(trx);
    await pruneInstances(trx, now);
    return imports.filter((i) => dead.has(i.instance_id));
  });
  if (!claimed) return report;
  report.ran = true;
  for (const orphan of claimed) {
    await withActor(ctx.db, { kind: 'user', userId: orphan.user_id }, async (trx) => {
      // Another round (this instance's or another's) may have taken it since: one repairs it, the others skip.
      if (!(await claimAbandonedImport(trx, orphan.id))) return;
      const queueId = await ensureDefaultQueue(trx, orphan.user_id);
      // An import's contacts are created within its first hour; older ones were queued by earlier imports.
      await queueMissingSyncedContacts(
        trx,
        orphan.user_id,
        queueId,
        new Date(orphan.created_at.getTime() - 3600_000),
      );
      if (await failAbandonedImport(trx, orphan.id, orphan.created + orphan.updated, now))
        report.imports += 1;
    });
  }
  report.staleCalls = await closeStaleCalls(ctx);
  return report;
}

/** Registers this instance and runs the janitor now and every `everyMs`. Returns the stopper. */
export async function startJanitor(
  ctx: JanitorContext,
  log: FastifyBaseLogger,
  everyMs = 30_000,
): Promise<() => void> {
  await withActor(ctx.db, { kind: 'system' }, (trx) =>
    registerInstance(trx, { id: ctx.instanceId, hostname: hostname(), pid: process.pid }, ctx.clock()),
  );
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // The next round is scheduled when this one ends, so rounds of one instance never overlap, however long one takes.
  const round = async () => {
    try {
      await withActor(ctx.db, { kind: 'system' }, (trx) => touchInstance(trx, ctx.instanceId, ctx.clock()));
      const report = await recoverAbandonedWork(ctx);
      if (report.imports + report.calls + report.staleCalls + report.jobs > 0)
        log.warn({ recovered: report }, 'closed work that no running server owns any more');
    } catch (error) {
      log.error({ err: error }, 'housekeeping round failed');
    }
    if (!stopped) {
      timer = setTimeout(() => void round(), everyMs);
      timer.unref();
    }
  };
  await round();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
