import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { AddedSchema } from '#domain/campaigns/campaign.schema.ts';
import type {
  CampaignChannel,
  CampaignTransition,
  RecipientState,
} from '#domain/campaigns/campaign-state.ts';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import {
  EmailCampaignListSchema,
  EmailCampaignResponseSchema,
  RecipientsPageSchema,
  type CreateEmailCampaignInput,
  type UpdateEmailCampaignInput,
} from '#domain/campaigns/email-campaign.schema.ts';
import {
  SmsCampaignListSchema,
  SmsCampaignResponseSchema,
  SmsRecipientsPageSchema,
  type CreateSmsCampaignInput,
  type UpdateSmsCampaignInput,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';

/** Each channel's campaign routes and the shapes they answer. */
const API = {
  email: {
    path: '/api/email-campaigns',
    list: EmailCampaignListSchema,
    one: EmailCampaignResponseSchema,
    page: RecipientsPageSchema,
  },
  sms: {
    path: '/api/sms-campaigns',
    list: SmsCampaignListSchema,
    one: SmsCampaignResponseSchema,
    page: SmsRecipientsPageSchema,
  },
} as const;
type Api = typeof API;
type Inputs = {
  email: { create: CreateEmailCampaignInput; update: UpdateEmailCampaignInput };
  sms: { create: CreateSmsCampaignInput; update: UpdateSmsCampaignInput };
};
export type CampaignOf<K extends CampaignChannel> = z.infer<Api[K]['one']>['campaign'];
export type RecipientOf<K extends CampaignChannel> = z.infer<Api[K]['page']>['recipients'][number];

/** A channel's routes and schemas, typed for that channel. */
const api = <K extends CampaignChannel>(channel: K) =>
  API[channel] as unknown as {
    path: string;
    list: z.ZodType<{ campaigns: CampaignOf<K>[] }>;
    one: z.ZodType<{ campaign: CampaignOf<K> }>;
    page: z.ZodType<{ recipients: RecipientOf<K>[]; next: number | null }>;
  };

/** Every campaign query lives under 'campaigns', the realtime topic campaigns announce their changes on. */
export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (channel: CampaignChannel) => ['campaigns', channel] as const,
  one: (channel: CampaignChannel, id: string) => ['campaigns', channel, id] as const,
  recipients: (channel: CampaignChannel, id: string, state: RecipientState | 'all') =>
    ['campaigns', channel, id, 'recipients', state] as const,
};

/** The user's campaigns of a channel with their counts (campaign lists are fresh for 5 minutes). */
export function useCampaigns<K extends CampaignChannel>(channel: K) {
  return useQuery({
    queryKey: campaignKeys.list(channel),
    queryFn: async ({ signal }) =>
      (await apiFetch(api(channel).path, { schema: api(channel).list, signal })).campaigns,
    staleTime: 5 * 60_000,
  });
}

export function useCampaign<K extends CampaignChannel>(channel: K, id: string) {
  return useQuery({
    queryKey: campaignKeys.one(channel, id),
    queryFn: async ({ signal }) =>
      (await apiFetch(`${api(channel).path}/${id}`, { schema: api(channel).one, signal })).campaign,
  });
}

/** A campaign's recipients in send order, page by page (optionally one state). */
export function useRecipients<K extends CampaignChannel>(
  channel: K,
  id: string,
  state: RecipientState | 'all',
) {
  return useInfiniteQuery({
    queryKey: campaignKeys.recipients(channel, id, state),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (pageParam !== null) query.set('after', String(pageParam));
      if (state !== 'all') query.set('state', state);
      return apiFetch(`${api(channel).path}/${id}/recipients?${query.toString()}`, {
        schema: api(channel).page,
        signal,
      });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
  });
}

/** A change to campaigns: every campaign query is refreshed after it. */
export function useCampaignMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

export function useCreateCampaign<K extends CampaignChannel>(channel: K) {
  return useCampaignMutation(
    async (input: Inputs[K]['create']) =>
      (
        await apiFetch(api(channel).path, {
          method: 'POST',
          body: input,
          schema: api(channel).one,
          timeoutMs: LONG_OPERATION_TIMEOUT_MS,
        })
      ).campaign,
  );
}

export function useUpdateCampaign<K extends CampaignChannel>(channel: K, id: string) {
  return useCampaignMutation((input: Inputs[K]['update']) =>
    apiFetch(`${api(channel).path}/${id}`, {
      method: 'PUT',
      body: input,
      schema: api(channel).one,
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}

export function useDeleteCampaign(channel: CampaignChannel) {
  return useCampaignMutation((id: string) => apiFetch(`${api(channel).path}/${id}`, { method: 'DELETE' }));
}

/** Send, pause, resume or cancel a campaign. */
export function useCampaignAction(channel: CampaignChannel, id: string) {
  return useCampaignMutation((action: CampaignTransition) =>
    apiFetch(`${api(channel).path}/${id}/${action}`, { method: 'POST', schema: api(channel).one }),
  );
}

/** Send to Campaign: the selection joins a draft (an e-mail sequence: enrolled until it is canceled). */
export function useAddToCampaign(channel: CampaignChannel) {
  return useCampaignMutation(({ campaignId, selection }: { campaignId: string; selection: BulkSelection }) =>
    apiFetch(`${api(channel).path}/${campaignId}/recipients`, {
      method: 'POST',
      body: selection,
      schema: AddedSchema,
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );
}
