import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import {
  AddToQueueResultSchema,
  QueueListSchema,
  QueueMembersPageSchema,
  QueueResponseSchema,
  RemovedMembersSchema,
  type CreateQueueInput,
  type UpdateQueueInput,
} from '#domain/contacts/queue.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';

/** Every queue query lives under 'queues'. */
export const queueKeys = { all: ['queues'] as const };

/** The user's call queues with their counts (fresh for 60 s). */
export function useQueues(enabled: boolean) {
  return useQuery({
    queryKey: queueKeys.all,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/queues', { schema: QueueListSchema, signal })).queues,
    enabled,
    staleTime: 60_000,
  });
}

export function useAddToQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ queueId, selection }: { queueId: string; selection: BulkSelection }) =>
      apiFetch(`/api/queues/${queueId}/members`, {
        method: 'POST',
        body: selection,
        schema: AddToQueueResultSchema,
        timeoutMs: LONG_OPERATION_TIMEOUT_MS, // a whole filter can be added at once
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.all }),
  });
}

/** Create Queue: a name and the contacts (ticked, or a whole filter, which can be a million contacts). */
export function useCreateQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateQueueInput) =>
      (
        await apiFetch('/api/queues', {
          method: 'POST',
          body: input,
          schema: QueueResponseSchema,
          timeoutMs: LONG_OPERATION_TIMEOUT_MS,
        })
      ).queue,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.all }),
  });
}

/** One queue with its counts. */
export function useQueue(queueId: string | undefined) {
  return useQuery({
    queryKey: [...queueKeys.all, queueId],
    queryFn: async ({ signal }) =>
      (await apiFetch(`/api/queues/${queueId}`, { schema: QueueResponseSchema, signal })).queue,
    enabled: queueId !== undefined,
  });
}

/** A queue's contacts in queue order, 100 at a time; only those matching `search` when one is given. */
export function useQueueMembers(queueId: string | undefined, search = '') {
  return useInfiniteQuery({
    queryKey: [...queueKeys.all, queueId, 'members', search],
    queryFn: ({ signal, pageParam }) =>
      apiFetch(
        `/api/queues/${queueId}/members?${new URLSearchParams({
          limit: '100',
          ...(pageParam ? { after: pageParam } : {}),
          ...(search ? { search } : {}),
        }).toString()}`,
        { schema: QueueMembersPageSchema, signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: queueId !== undefined,
  });
}

const invalidatingQueues = <Input, Output>(mutationFn: (input: Input) => Promise<Output>) =>
  function useQueueMutation() {
    const queryClient = useQueryClient();
    return useMutation({
      mutationFn,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.all }),
    });
  };

export const useDeleteQueue = invalidatingQueues((queueId: string) =>
  apiFetch(`/api/queues/${queueId}`, { method: 'DELETE' }),
);

export const useRemoveQueueMembers = invalidatingQueues(
  ({ queueId, ids }: { queueId: string; ids: string[] }) =>
    apiFetch(`/api/queues/${queueId}/members/remove`, {
      method: 'POST',
      body: { ids },
      schema: RemovedMembersSchema,
    }),
);

/** Start over: every contact of the queue open again. */
export const useRestartQueue = invalidatingQueues((queueId: string) =>
  apiFetch(`/api/queues/${queueId}/restart`, { method: 'POST', schema: QueueResponseSchema }),
);

/** Save Queue: name, added and removed contacts, saved together. */
export const useUpdateQueue = invalidatingQueues(
  async ({ queueId, ...input }: UpdateQueueInput & { queueId: string }) =>
    (
      await apiFetch(`/api/queues/${queueId}`, {
        method: 'PATCH',
        body: input,
        schema: QueueResponseSchema,
        timeoutMs: LONG_OPERATION_TIMEOUT_MS,
      })
    ).queue,
);

/** The dialer import's Call Queues tab: another queue's contacts join this one. */
export const useAddFromQueue = invalidatingQueues(
  ({ queueId, sourceQueueId }: { queueId: string; sourceQueueId: string }) =>
    apiFetch(`/api/queues/${queueId}/members/from-queue`, {
      method: 'POST',
      body: { sourceQueueId },
      schema: AddToQueueResultSchema,
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
);
