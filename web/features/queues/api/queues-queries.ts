import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import {
  AddToQueueResultSchema,
  QueueListSchema,
  QueueResponseSchema,
  type CreateQueueInput,
} from '#domain/contacts/queue.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';

/** Every queue query lives under 'queues'. */
export const queueKeys = { all: ['queues'] as const };

/** The user's call queues with their counts (spec part 2 §9: fresh for 60 s). */
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
