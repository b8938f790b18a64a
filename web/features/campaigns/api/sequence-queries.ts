import { z } from 'zod';
import { EmailCampaignResponseSchema } from '#domain/campaigns/email-campaign.schema.ts';
import type {
  CreateEmailSequenceInput,
  UpdateEmailSequenceInput,
} from '#domain/campaigns/email-sequence.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';
import { useCampaignMutation } from './campaign-queries.ts';

/** A new e-mail sequence with its e-mails and contacts (read and sent as an e-mail campaign of type 'sequence'). */
export function useCreateSequence() {
  return useCampaignMutation(
    async (input: CreateEmailSequenceInput) =>
      (
        await apiFetch('/api/email-sequences', {
          method: 'POST',
          body: input,
          schema: EmailCampaignResponseSchema,
          timeoutMs: LONG_OPERATION_TIMEOUT_MS,
        })
      ).campaign,
  );
}

export function useUpdateSequence(id: string) {
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
