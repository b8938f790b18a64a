import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SendingLimitsSchema, type SendingLimits } from '#domain/campaigns/campaign-pace.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const key = ['sending-limits'] as const;

export function useSendingLimits() {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiFetch('/api/sending-limits', { schema: SendingLimitsSchema, signal }),
  });
}

export function useSaveSendingLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limits: SendingLimits) =>
      apiFetch('/api/sending-limits', { method: 'PUT', body: limits, schema: SendingLimitsSchema }),
    onSuccess: (saved) => putAnswer(queryClient, key, saved),
  });
}
