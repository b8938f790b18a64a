import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { QueueResponseSchema } from '#domain/contacts/queue.schema.ts';
import {
  CLAIM_RENEW_EVERY_MS,
  queueProgress,
  SKIP_REASON_TEXT,
  WALK_MESSAGES,
  WalkStepSchema,
  type SkippedContact,
  type WalkStep,
} from '#domain/dialer/queue-walk.ts';
import { apiFetch, ApiError } from '../../lib/api-client.ts';
import { queueKeys } from './api/queues-queries.ts';

/** This tab's walker id: made once, kept across reloads of the tab (sessionStorage), never shared with another tab. */
const WALKER_KEY = 'dialer-walker';
export function tabWalker(): string {
  const known = sessionStorage.getItem(WALKER_KEY);
  if (known) return known;
  const made = crypto.randomUUID();
  sessionStorage.setItem(WALKER_KEY, made);
  return made;
}

export const walkKey = (queueId: string | null) => [...queueKeys.all, queueId, 'walk'] as const;

const walkUrl = (queueId: string, step = '') => `/api/queues/${queueId}/walk${step}`;

/**
 * A dialer's walk through a call queue, kept on the server (docs/decisions/015-queue-walks.md):
 * the contact this tab holds, the true remaining count, the contacts skipped on the way and why. Saving a
 * disposition with the queue's id completes the contact on the server (the queues are refetched, and with them the
 * next contact); Mark as Completed does it without a disposition; Save & Exit lets the contact go. The hold is
 * renewed every 2 minutes while the walk is shown. The end of the queue says 'Queue completed' once.
 */
export function useQueueWalk(queueId: string | null) {
  const queryClient = useQueryClient();
  const [walker] = useState(tabWalker);
  const [skipped, setSkipped] = useState<SkippedContact[]>([]);
  // Contacts skipped on the way are shown with their reason; the end of the queue is announced once, when this
  // walker's step goes from a contact to none left.
  const arrived = (before: WalkStep | undefined, next: WalkStep) => {
    if (next.skipped.length > 0) {
      setSkipped((known) => [...next.skipped, ...known].slice(0, 50));
      const what = next.skipped.length === 1 ? next.skipped[0]!.name : `${next.skipped.length} contacts`;
      toast.info(`Skipped ${what}`, {
        description: [...new Set(next.skipped.map((s) => s.text || SKIP_REASON_TEXT[s.reason]))].join('; '),
      });
    }
    if (before?.contact && !next.contact && isFinished(next)) toast.success(WALK_MESSAGES.completed);
    return next;
  };
  const step = useQuery({
    queryKey: walkKey(queueId),
    queryFn: async ({ signal }) =>
      arrived(
        queryClient.getQueryData<WalkStep>(walkKey(queueId)),
        await apiFetch(walkUrl(queueId!), {
          method: 'POST',
          body: { walker },
          schema: WalkStepSchema,
          signal,
        }),
      ),
    enabled: queueId !== null,
    refetchInterval: CLAIM_RENEW_EVERY_MS,
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 2,
  });
  const data = step.data;
  // Contacts waiting for their calling hours are offered as soon as the first may be called.
  const opensAt = !data?.contact ? data?.waiting?.nextAt : null;
  const { refetch } = step;
  useEffect(() => {
    if (!opensAt) return;
    const wait = Math.min(Math.max(new Date(opensAt).getTime() - Date.now() + 1_000, 1_000), 2 ** 31 - 1);
    const timer = setTimeout(() => void refetch(), wait);
    return () => clearTimeout(timer);
  }, [opensAt, refetch]);

  const deleted = step.error instanceof ApiError && step.error.status === 404;

  return {
    walker,
    step: data,
    isPending: step.isPending && queueId !== null,
    error: step.error,
    deleted,
    contact: data?.contact ?? null,
    remaining: data ? queueProgress(data.queue).remaining : null,
    finished: data ? isFinished(data) : false,
    /** Contacts passed over for now (outside their calling hours): how many, why, and when the next may be called. */
    waiting: data?.waiting ?? null,
    skipped,
    /** Mark as Completed: done without a disposition; the next contact follows. */
    markCompleted: async (contactId: string) => {
      if (!queueId) return;
      const next = await apiFetch(walkUrl(queueId, '/complete'), {
        method: 'POST',
        body: { walker, contactId },
        schema: WalkStepSchema,
      });
      queryClient.setQueryData(walkKey(queueId), arrived(queryClient.getQueryData(walkKey(queueId)), next));
      void queryClient.invalidateQueries({ queryKey: queueKeys.all, exact: true });
    },
    /** Save & Exit: lets the held contact go; completed stays stored for next time, on any device. */
    saveAndExit: async (options: { quiet?: boolean } = {}) => {
      if (!queueId) return;
      await apiFetch(walkUrl(queueId, '/release'), {
        method: 'POST',
        body: { walker },
        schema: QueueResponseSchema,
      });
      queryClient.removeQueries({ queryKey: walkKey(queueId) });
      void queryClient.invalidateQueries({ queryKey: queueKeys.all });
      if (!options.quiet)
        toast.success(WALK_MESSAGES.saved.title, { description: WALK_MESSAGES.saved.description });
    },
  };
}

/** Nothing left for anyone, and nothing more coming (a queue still filling gets more contacts). */
const isFinished = (step: WalkStep) =>
  step.contact === null &&
  step.heldElsewhere === 0 &&
  step.waiting === null &&
  step.queue.total > 0 &&
  step.queue.filling === null;
