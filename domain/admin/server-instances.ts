import { z } from 'zod';

/** A server process that has run on this database in the last week (Admin → Servers). */
export const ServerInstanceSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  /** Started with BACKGROUND_JOBS=on: it sends campaigns, places bulk calls, delivers webhooks and syncs. */
  runsBackgroundJobs: z.boolean(),
  /** Connected now (its presence lock is held); a stopped or killed one is not. */
  running: z.boolean(),
});
export type ServerInstance = z.infer<typeof ServerInstanceSchema>;

export const ServerInstancesSchema = z.object({
  instances: z.array(ServerInstanceSchema),
  /** Whether some running instance runs background jobs; when none does, that work waits (decision 050). */
  backgroundJobsRunning: z.boolean(),
});
export type ServerInstances = z.infer<typeof ServerInstancesSchema>;

/** What an administrator (and the server's log) is told when no running instance runs background jobs. */
export const NO_BACKGROUND_JOBS_MESSAGE =
  'No running server runs background jobs: campaigns, sequences, bulk calls, webhooks and syncs wait until one does. Start a server with BACKGROUND_JOBS=on.';

/** Work queued now is done only if an instance that is running runs jobs; one that stopped does nothing. */
export function backgroundJobsRunning(
  instances: readonly Pick<ServerInstance, 'running' | 'runsBackgroundJobs'>[],
): boolean {
  return instances.some((instance) => instance.running && instance.runsBackgroundJobs);
}
