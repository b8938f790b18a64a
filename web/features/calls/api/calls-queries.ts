import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  CallerIdSchema,
  CallingSetupSchema,
  CallResponseSchema,
  ContactCallingSchema,
  DayLogSchema,
  DispositionRecordSchema,
  LocalPresenceInputSchema,
  type SaveDispositionRequest,
} from '#domain/calls/call.schema.ts';
import { isFinished } from '#domain/calls/call-status.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/** Calling queries live under 'calls', the realtime topic of calls, dispositions and caller IDs (migration 0009). */
export const callKeys = {
  setup: ['calls', 'setup'] as const,
  call: (id: string) => ['calls', 'call', id] as const,
  day: (from: string) => ['calls', 'day', from] as const,
  contact: (contactId: string) => ['calls', 'contact', contactId] as const,
};

export const callingSetupQuery = queryOptions({
  queryKey: callKeys.setup,
  queryFn: ({ signal }) => apiFetch('/api/calls/setup', { schema: CallingSetupSchema, signal }),
  staleTime: 60_000,
});

export const useCallingSetup = () => useQuery(callingSetupQuery);

/** A call followed live: the realtime notice refetches it, and a short poll covers a dropped stream. */
export function useCall(id: string | null) {
  return useQuery({
    queryKey: callKeys.call(id ?? 'none'),
    queryFn: async ({ signal }) =>
      (await apiFetch(`/api/calls/${id}`, { schema: CallResponseSchema, signal })).call,
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data.status) ? false : 2000),
  });
}

/** The Call Logs Dashboard's day: refreshed every 60 s and on every change. */
export function useDayLog(from: Date, to: Date) {
  return useQuery({
    queryKey: callKeys.day(from.toISOString()),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/calls/day?${new URLSearchParams({ from: from.toISOString(), to: to.toISOString() }).toString()}`,
        {
          schema: DayLogSchema,
          signal,
        },
      ),
    refetchInterval: 60_000,
  });
}

export function useContactCalling(contactId: string, enabled = true) {
  return useQuery({
    queryKey: callKeys.contact(contactId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/contacts/${contactId}/calling`, { schema: ContactCallingSchema, signal }),
    enabled,
    retry: false,
  });
}

const useInvalidating = <V, R>(
  fn: (v: V) => Promise<R>,
  keys: readonly (readonly string[])[] = [['calls']],
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
};

export const useHangUp = () =>
  useInvalidating((id: string) => apiFetch(`/api/calls/${id}/hangup`, { method: 'POST' }));

export const useResetCallSystem = () =>
  useInvalidating(() =>
    apiFetch('/api/calls/reset', { method: 'POST', schema: z.object({ closed: z.number() }) }),
  );

export const useSaveDisposition = () =>
  useInvalidating(
    (input: SaveDispositionRequest) =>
      apiFetch('/api/dispositions', {
        method: 'POST',
        body: input,
        schema: z.object({ disposition: DispositionRecordSchema }),
      }),
    [['calls'], ['contacts'], ['queues']],
  );

export const useRemoveDoNotCall = () =>
  useInvalidating((contactId: string) =>
    apiFetch(`/api/contacts/${contactId}/do-not-call`, { method: 'DELETE' }),
  );

export const useAddCallerId = () =>
  useInvalidating((input: { number: string; label?: string; isDefault: boolean }) =>
    apiFetch('/api/caller-ids', {
      method: 'POST',
      body: input,
      schema: z.object({ callerId: CallerIdSchema }),
    }),
  );
export const useLocalPresence = () =>
  useInvalidating((on: boolean) =>
    apiFetch('/api/caller-ids/local-presence', {
      method: 'PUT',
      body: { on },
      schema: LocalPresenceInputSchema,
    }),
  );
export const useMakeDefaultCallerId = () =>
  useInvalidating((id: string) => apiFetch(`/api/caller-ids/${id}/default`, { method: 'POST' }));
export const useDeleteCallerId = () =>
  useInvalidating((id: string) => apiFetch(`/api/caller-ids/${id}`, { method: 'DELETE' }));

/** Leaves one of the rep's recorded messages on the answered call (decision 031); the contact's outcome follows. */
export const useDropVoicemail = () =>
  useInvalidating(
    ({ callId, dropId }: { callId: string; dropId: string }) =>
      apiFetch(`/api/calls/${callId}/voicemail-drop`, {
        method: 'POST',
        body: { dropId },
        schema: CallResponseSchema,
      }),
    [['calls'], ['contacts'], ['queues']],
  );
