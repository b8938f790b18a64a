import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SalesforceAuthorizeResponseSchema,
  SalesforceResponseSchema,
  type SalesforceImportInput,
  type SalesforceResponse,
} from '#domain/salesforce/salesforce.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const salesforceKey = ['salesforce'] as const;

/** The user's Salesforce connection (decision 037), whether the server can connect at all; polled while an import runs. */
export const useSalesforce = () =>
  useQuery({
    queryKey: salesforceKey,
    queryFn: ({ signal }) => apiFetch('/api/salesforce', { schema: SalesforceResponseSchema, signal }),
    refetchInterval: (query) => (query.state.data?.salesforce?.importStatus === 'running' ? 1000 : 10_000),
  });

/** Starts the sign-in: the server keeps the PKCE verifier and answers where to send the browser. */
export const useStartSalesforceSignIn = () =>
  useMutation({
    mutationFn: (choices: { logCalls: boolean }) =>
      apiFetch('/api/salesforce/authorize', {
        method: 'POST',
        body: choices,
        schema: SalesforceAuthorizeResponseSchema,
      }),
  });

export function useSalesforceChoices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: { logCalls: boolean }) =>
      apiFetch('/api/salesforce', { method: 'PATCH', body: choices, schema: SalesforceResponseSchema }),
    onSuccess: (answer) => putAnswer(queryClient, salesforceKey, answer),
  });
}

export function useImportFromSalesforce() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SalesforceImportInput) =>
      apiFetch('/api/salesforce/import', { method: 'POST', body: input, schema: SalesforceResponseSchema }),
    onSuccess: (answer) => putAnswer(queryClient, salesforceKey, answer),
  });
}

export function useDisconnectSalesforce() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/salesforce', { method: 'DELETE' }),
    onSuccess: () =>
      queryClient.setQueryData<SalesforceResponse>(salesforceKey, (old) =>
        old ? { ...old, salesforce: null } : old,
      ),
  });
}
