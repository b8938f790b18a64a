import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  DialingSettingsSchema,
  ParallelStateSchema,
  type DialingSettings,
  type ParallelState,
} from '#domain/dialer/parallel-dialing.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/**
 * Parallel dialing's state lives under 'calls' (every line is a call): each change to a line refetches it through
 * the realtime stream, and a short poll covers a dropped stream while lines ring.
 */
export const parallelKey = (queueId: string, walker: string) =>
  ['calls', 'parallel', queueId, walker] as const;

const ringing = (state: ParallelState | undefined) =>
  state?.round !== null && state?.round !== undefined && !state.round.settled;

export function useParallelState(queueId: string, walker: string) {
  return useQuery({
    queryKey: parallelKey(queueId, walker),
    queryFn: ({ signal }) =>
      apiFetch(`/api/queues/${queueId}/parallel?${new URLSearchParams({ walker }).toString()}`, {
        schema: ParallelStateSchema,
        signal,
      }),
    // Every change to the rep's calls arrives on the event stream (the 'calls' topic refreshes this key); the timer
    // only covers a stream that dropped.
    refetchInterval: (query) => (ringing(query.state.data) ? 3000 : 15_000),
  });
}

export function useDialingSettings(queueId: string, walker: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: DialingSettings) =>
      apiFetch(`/api/queues/${queueId}/dialing`, {
        method: 'PUT',
        body: settings,
        schema: z.object({ settings: DialingSettingsSchema }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: parallelKey(queueId, walker) }),
  });
}

/** Starts a round (or answers the one still ringing) and pauses it: each answers the walker's new state. */
export function useRoundControl(queueId: string, walker: string) {
  const queryClient = useQueryClient();
  const post = (what: 'round' | 'pause') => () =>
    apiFetch(`/api/queues/${queueId}/parallel/${what}`, {
      method: 'POST',
      body: { walker },
      schema: ParallelStateSchema,
      timeoutMs: 30_000,
    });
  const onSuccess = (state: ParallelState) => {
    queryClient.setQueryData(parallelKey(queueId, walker), state);
    void queryClient.invalidateQueries({ queryKey: ['queues'] });
  };
  return {
    start: useMutation({ mutationFn: post('round'), onSuccess }),
    pause: useMutation({ mutationFn: post('pause'), onSuccess }),
  };
}
