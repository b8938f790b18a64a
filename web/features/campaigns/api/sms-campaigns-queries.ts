import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import type { RecipientState } from '#domain/campaigns/email-campaign.schema.ts';
import {
  SmsCampaignListSchema,
  SmsCampaignResponseSchema,
  SmsRecipientsPageSchema,
  type CreateSmsCampaignInput,
  type UpdateSmsCampaignInput,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';
import { campaignKeys } from './email-campaigns-queries.ts';

/** SMS campaign queries live under 'campaigns' too: the realtime topic both kinds announce their changes on. */
const smsKeys = {
  list: ['campaigns', 'sms'] as const,
  one: (id: string) => ['campaigns', 'sms', id] as const,
  recipients: (id: string, state: RecipientState | 'all') =>
    ['campaigns', 'sms', id, 'recipients', state] as const,
};

export function useSmsCampaigns() {
  return useQuery({
    queryKey: smsKeys.list,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/sms-campaigns', { schema: SmsCampaignListSchema, signal })).campaigns,
    staleTime: 5 * 60_000,
  });
}

export function useSmsCampaign(id: string) {
  return useQuery({
    queryKey: smsKeys.one(id),
    queryFn: async ({ signal }) =>
      (await apiFetch(`/api/sms-campaigns/${id}`, { schema: SmsCampaignResponseSchema, signal })).campaign,
  });
}

export function useSmsRecipients(id: string, state: RecipientState | 'all') {
  return useInfiniteQuery({
    queryKey: smsKeys.recipients(id, state),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (pageParam !== null) query.set('after', String(pageParam));
      if (state !== 'all') query.set('state', state);
      return apiFetch(`/api/sms-campaigns/${id}/recipients?${query.toString()}`, {
        schema: SmsRecipientsPageSchema,
        signal,
      });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
  });
}

function useSmsMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

export function useCreateSmsCampaign() {
  return useSmsMutation(
    async (input: CreateSmsCampaignInput) =>
      (
        await apiFetch('/api/sms-campaigns', {
          method: 'POST',
          body: input,
          schema: SmsCampaignResponseSchema,
          timeoutMs: LONG_OPERATION_TIMEOUT_MS,
        })
      ).campaign,
  );
}

export function useUpdateSmsCampaign(id: string) {
  return useSmsMutation((input: UpdateSmsCampaignInput) =>
    apiFetch(`/api/sms-campaigns/${id}`, {
      method: 'PUT',
      body: input,
      schema: SmsCampaignResponseSchema,
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}

export function useDeleteSmsCampaign() {
  return useSmsMutation((id: string) => apiFetch(`/api/sms-campaigns/${id}`, { method: 'DELETE' }));
}

export function useSmsCampaignAction(id: string) {
  return useSmsMutation((action: 'send' | 'pause' | 'resume' | 'cancel') =>
    apiFetch(`/api/sms-campaigns/${id}/${action}`, { method: 'POST', schema: SmsCampaignResponseSchema }),
  );
}

/** Send to Campaign: the selection joins a draft SMS campaign. */
export function useAddToSmsCampaign() {
  return useSmsMutation(({ campaignId, selection }: { campaignId: string; selection: BulkSelection }) =>
    apiFetch(`/api/sms-campaigns/${campaignId}/recipients`, {
      method: 'POST',
      body: selection,
      schema: z.object({ added: z.number() }),
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}

/** The simulator's "Simulate reply": the recipient answers; the answer sent back (HELP's) is returned. */
export function useSimulateReply(campaignId: string) {
  return useSmsMutation(({ contactId, text }: { contactId: string; text: string }) =>
    apiFetch(`/api/sms-campaigns/${campaignId}/recipients/${contactId}/simulate-reply`, {
      method: 'POST',
      body: { text },
      schema: z.object({ reply: z.string().nullable() }),
    }),
  );
}
