import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import {
  EmailCampaignListSchema,
  EmailCampaignResponseSchema,
  RecipientsPageSchema,
  type CreateEmailCampaignInput,
  type RecipientState,
  type UpdateEmailCampaignInput,
} from '#domain/campaigns/email-campaign.schema.ts';
import type {
  CreateEmailSequenceInput,
  UpdateEmailSequenceInput,
} from '#domain/campaigns/email-sequence.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';

/** Every campaign query lives under 'campaigns', the realtime topic campaigns announce their changes on. */
export const campaignKeys = {
  all: ['campaigns'] as const,
  emails: ['campaigns', 'email'] as const,
  email: (id: string) => ['campaigns', 'email', id] as const,
  recipients: (id: string, state: RecipientState | 'all') =>
    ['campaigns', 'email', id, 'recipients', state] as const,
};

/** The user's e-mail campaigns with their counts (spec part 2 §9: campaign lists are fresh for 5 minutes). */
export function useEmailCampaigns() {
  return useQuery({
    queryKey: campaignKeys.emails,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/email-campaigns', { schema: EmailCampaignListSchema, signal })).campaigns,
    staleTime: 5 * 60_000,
  });
}

export function useEmailCampaign(id: string) {
  return useQuery({
    queryKey: campaignKeys.email(id),
    queryFn: async ({ signal }) =>
      (await apiFetch(`/api/email-campaigns/${id}`, { schema: EmailCampaignResponseSchema, signal }))
        .campaign,
  });
}

/** A campaign's recipients in send order, page by page (optionally one state). */
export function useRecipients(id: string, state: RecipientState | 'all') {
  return useInfiniteQuery({
    queryKey: campaignKeys.recipients(id, state),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (pageParam !== null) query.set('after', String(pageParam));
      if (state !== 'all') query.set('state', state);
      return apiFetch(`/api/email-campaigns/${id}/recipients?${query.toString()}`, {
        schema: RecipientsPageSchema,
        signal,
      });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
  });
}

function useCampaignMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

export function useCreateEmailCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      input:
        ({ type: 'campaign' } & CreateEmailCampaignInput) | ({ type: 'sequence' } & CreateEmailSequenceInput),
    ) =>
      (
        await apiFetch(input.type === 'sequence' ? '/api/email-sequences' : '/api/email-campaigns', {
          method: 'POST',
          body: (({ type: _type, ...body }) => body)(input),
          schema: EmailCampaignResponseSchema,
          timeoutMs: LONG_OPERATION_TIMEOUT_MS,
        })
      ).campaign,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

export function useUpdateEmailCampaign(id: string) {
  return useCampaignMutation((input: UpdateEmailCampaignInput) =>
    apiFetch(`/api/email-campaigns/${id}`, {
      method: 'PUT',
      body: input,
      schema: EmailCampaignResponseSchema,
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}

export function useUpdateEmailSequence(id: string) {
  return useCampaignMutation((input: UpdateEmailSequenceInput) =>
    apiFetch(`/api/email-sequences/${id}`, {
      method: 'PUT',
      body: input,
      schema: EmailCampaignResponseSchema,
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}

/** Contacts leave a sequence under way. */
export function useLeaveSequence(id: string) {
  return useCampaignMutation((contactIds: string[]) =>
    apiFetch(`/api/email-sequences/${id}/leave`, {
      method: 'POST',
      body: { contactIds },
      schema: z.object({ left: z.number() }),
    }),
  );
}

export function useDeleteEmailCampaign() {
  return useCampaignMutation((id: string) => apiFetch(`/api/email-campaigns/${id}`, { method: 'DELETE' }));
}

/** Send, pause, resume or cancel a campaign. */
export function useCampaignAction(id: string) {
  return useCampaignMutation((action: 'send' | 'pause' | 'resume' | 'cancel') =>
    apiFetch(`/api/email-campaigns/${id}/${action}`, { method: 'POST', schema: EmailCampaignResponseSchema }),
  );
}

/** Send to Campaign: the selection joins a draft e-mail campaign, or a sequence (enrolled). */
export function useAddToEmailCampaign() {
  return useCampaignMutation(({ campaignId, selection }: { campaignId: string; selection: BulkSelection }) =>
    apiFetch(`/api/email-campaigns/${campaignId}/recipients`, {
      method: 'POST',
      body: selection,
      schema: z.object({ added: z.number() }),
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}
