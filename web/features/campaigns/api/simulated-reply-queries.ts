import { z } from 'zod';
import { apiFetch } from '../../../lib/api-client.ts';
import { useCampaignMutation } from './campaign-queries.ts';

/** The simulator's "Simulate reply": the recipient answers; the answer sent back (HELP's) is returned. */
export function useSimulateReply(campaignId: string) {
  return useCampaignMutation(({ contactId, text }: { contactId: string; text: string }) =>
    apiFetch(`/api/sms-campaigns/${campaignId}/recipients/${contactId}/simulate-reply`, {
      method: 'POST',
      body: { text },
      schema: z.object({ reply: z.string().nullable() }),
    }),
  );
}
