import type { FastifyBaseLogger } from 'fastify';
import { backgroundJobsRunning, NO_BACKGROUND_JOBS_MESSAGE } from '#domain/admin/server-instances.ts';
import { withActor } from '../db/database.ts';
import type { AppContext } from '../app-context.ts';
import { everyFewMoments } from '../jobs/every-few-moments.ts';
import { listInstances } from './instances.repository.ts';

/**
 * On an instance started with BACKGROUND_JOBS=off (decision 050): checks now and every `everyMs` whether some
 * running instance runs the jobs this one queues, and says so in the log when that changes: a warning when none
 * does (campaigns and webhooks would wait unseen), a note when one does again. Returns the stopper.
 */
export function watchBackgroundJobsRunSomewhere(
  ctx: Pick<AppContext, 'db'>,
  log: FastifyBaseLogger,
  everyMs = 30_000,
): () => void {
  let known: boolean | undefined;
  const repeating = everyFewMoments(
    everyMs,
    async () => {
      const instances = await withActor(ctx.db, { kind: 'system' }, (trx) => listInstances(trx));
      const running = backgroundJobsRunning(instances);
      if (running === known) return;
      if (!running) log.warn(NO_BACKGROUND_JOBS_MESSAGE);
      else if (known === false) log.info('a running server runs background jobs again');
      known = running;
    },
    log,
    'could not check whether a server runs background jobs',
  );
  repeating.soon();
  return repeating.stop;
}
