import type { FastifyBaseLogger } from 'fastify';
import { backgroundJobsRunning, NO_BACKGROUND_JOBS_MESSAGE } from '#domain/admin/server-instances.ts';
import { withActor } from '../db/database.ts';
import type { AppContext } from '../app-context.ts';
import { listInstances } from './instances.repository.ts';

/**
 * On an instance started with BACKGROUND_JOBS=off (decision 050): checks now and every `everyMs` whether some
 * running instance runs the jobs this one queues, and says so in the log when that changes: a warning when none
 * does (campaigns and webhooks would wait unseen), a note when one does again. Returns the stopper.
 */
export function watchBackgroundJobsRunSomewhere(
  ctx: Pick<AppContext, 'db'>,
  log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>,
  everyMs = 30_000,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let known: boolean | undefined;
  const round = async () => {
    try {
      const instances = await withActor(ctx.db, { kind: 'system' }, (trx) => listInstances(trx));
      const running = backgroundJobsRunning(instances);
      if (running !== known) {
        if (!running) log.warn(NO_BACKGROUND_JOBS_MESSAGE);
        else if (known === false) log.info('a running server runs background jobs again');
        known = running;
      }
    } catch (error) {
      log.error({ err: error }, 'could not check whether a server runs background jobs');
    }
    if (!stopped) {
      timer = setTimeout(() => void round(), everyMs);
      timer.unref();
    }
  };
  void round();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
