import { useMutation, useQuery } from '@tanstack/react-query';
import { IncomingCallsResponseSchema, type SimulateIncomingCall } from '#domain/calls/incoming-call.ts';
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
