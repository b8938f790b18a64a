import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HubSpotResponseSchema, type HubSpotConnectInput } from '#domain/hubspot/hubspot.ts';
import type { DuplicateMode } from '#domain/contacts/contact-import.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const hubspotKey = ['hubspot'] as const;

/** The user's HubSpot connection (decision 036), or null; polled while an import runs. */
export const useHubspot = () =>
  useQuery({
    queryKey: hubspotKey,
    queryFn: ({ signal }) => apiFetch('/api/hubspot', { schema: HubSpotResponseSchema, signal }),
    refetchInterval: (query) => (query.state.data?.hubspot?.importStatus === 'running' ? 1000 : 10_000),
  });

export function useConnectHubspot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: HubSpotConnectInput) =>
      apiFetch('/api/hubspot', { method: 'PUT', body: input, schema: HubSpotResponseSchema }),
    onSuccess: (answer) => putAnswer(queryClient, hubspotKey, answer),
  });
}

export function useHubspotChoices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: { logCalls?: boolean; createMissing?: boolean }) =>
      apiFetch('/api/hubspot', { method: 'PATCH', body: choices, schema: HubSpotResponseSchema }),
    onSuccess: (answer) => putAnswer(queryClient, hubspotKey, answer),
  });
}

export function useImportFromHubspot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (duplicates: DuplicateMode) =>
      apiFetch('/api/hubspot/import', {
        method: 'POST',
        body: { duplicates },
        schema: HubSpotResponseSchema,
      }),
    onSuccess: (answer) => putAnswer(queryClient, hubspotKey, answer),
  });
}

export function useDisconnectHubspot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/hubspot', { method: 'DELETE' }),
    onSuccess: () => putAnswer(queryClient, hubspotKey, { hubspot: null }),
  });
}
