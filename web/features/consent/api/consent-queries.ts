import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ConsentSettingsSchema,
  ContactConsentSchema,
  ExpressConsentSchema,
  type ConsentSettings,
  type ExpressConsentInput,
} from '#domain/consent/consent.schema.ts';
import { ConsentRecordSchema } from '#domain/consent/consent-record.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

/**
 * Consent answers live under 'calls' (the realtime topic of calls and dispositions), so a do-not-call disposition or a
 * call that reaches a state's limit refreshes them; the local time moves on each minute.
 */
const consentKeys = {
  contact: (id: string) => ['calls', 'consent', id] as const,
  record: (id: string) => ['calls', 'consent', id, 'record'] as const,
  settings: ['consent-settings'] as const,
};

export function useContactConsent(contactId: string, enabled = true) {
  return useQuery({
    queryKey: consentKeys.contact(contactId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/contacts/${contactId}/consent`, { schema: ContactConsentSchema, signal }),
    enabled,
    retry: false,
    refetchInterval: 60_000,
  });
}

export function useConsentRecord(contactId: string, enabled = true) {
  return useQuery({
    queryKey: consentKeys.record(contactId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/contacts/${contactId}/consent/record`, { schema: ConsentRecordSchema, signal }),
    enabled,
    retry: false,
  });
}

export function useConsentSettings() {
  return useQuery({
    queryKey: consentKeys.settings,
    queryFn: ({ signal }) => apiFetch('/api/consent/settings', { schema: ConsentSettingsSchema, signal }),
  });
}

export function useSaveConsentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ConsentSettings) =>
      apiFetch('/api/consent/settings', { method: 'PUT', body: settings, schema: ConsentSettingsSchema }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['calls', 'consent'] });
      return putAnswer(queryClient, consentKeys.settings, saved);
    },
  });
}

/** Record express consent for a contact; the contact's answers and record refresh. */
export function useGiveExpressConsent(contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (consent: ExpressConsentInput) =>
      apiFetch(`/api/contacts/${contactId}/consent/express`, {
        method: 'POST',
        body: consent,
        schema: ExpressConsentSchema,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: consentKeys.contact(contactId) }),
  });
}

/** Withdraw a contact's express consent; it stays in their record. */
export function useWithdrawExpressConsent(contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch(`/api/contacts/${contactId}/consent/express`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: consentKeys.contact(contactId) }),
  });
}
