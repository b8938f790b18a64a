import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IncomingCallsResponseSchema,
  MissedCallsToReturnSchema,
  type SimulateIncomingCall,
} from '#domain/calls/incoming-call.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/**
 * The calls ringing the user now, with who is calling (decision 028). Under 'calls', so every change of a call
 * refetches it in every open tab: a new call rings, one answered elsewhere or missed stops. A slow poll covers a
 * dropped event stream.
 */
export function useIncomingCalls(enabled: boolean) {
  return useQuery({
    queryKey: ['calls', 'incoming'],
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/calls/incoming', { schema: IncomingCallsResponseSchema, signal })).calls,
    enabled,
    refetchInterval: 15_000,
  });
}

/** The simulator's 'Simulate incoming call': someone calls one of the user's numbers. */
export const useSimulateIncomingCall = () =>
  useMutation({
    mutationFn: (input: SimulateIncomingCall) =>
      apiFetch('/api/calls/simulate-incoming', { method: 'POST', body: input }),
  });

/** The missed calls to return, one line per number (under 'calls': a call back or a new miss refetches it). */
export const useMissedCalls = () =>
  useQuery({
    queryKey: ['calls', 'missed'],
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/calls/missed', { schema: MissedCallsToReturnSchema, signal })).missed,
    refetchInterval: 60_000,
  });

/** Marks a missed number done: it leaves the list. */
export function useMissedCallDone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (callId: string) => apiFetch(`/api/calls/${callId}/missed/done`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['calls', 'missed'] }),
  });
}
