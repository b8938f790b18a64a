import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SlackResponseSchema, type SlackSettingsInput } from '#domain/slack/slack-messages.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const slackKey = ['slack'] as const;

/** The user's Slack connection (decision 034), or null. */
export const useSlack = () =>
  useQuery({
    queryKey: slackKey,
    queryFn: ({ signal }) => apiFetch('/api/slack', { schema: SlackResponseSchema, signal }),
  });

export function useSaveSlack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SlackSettingsInput) =>
      apiFetch('/api/slack', { method: 'PUT', body: input, schema: SlackResponseSchema }),
    onSuccess: (answer) => putAnswer(queryClient, slackKey, answer),
  });
}

/** Sends the test message now; the card shows how it went either way. */
export function useTestSlack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/slack/test', { method: 'POST', schema: SlackResponseSchema }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: slackKey }),
  });
}

export function useDisconnectSlack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/slack', { method: 'DELETE' }),
    onSuccess: () => putAnswer(queryClient, slackKey, { slack: null }),
  });
}
