import { useMutation, useQuery, useQueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ContactEmailsSchema,
  EmailConfigurationResponseSchema,
  EmailTemplateSchema,
  OutboxPageSchema,
  SendEmailResultSchema,
  type EmailConfigurationInput,
  type EmailTemplateInput,
  type SendEmailInput,
} from '#domain/email/email.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

/**
 * Templates live under 'email', the realtime topic of their changes; a contact's e-mails and the outbox live under
 * 'contacts', whose notices a sent e-mail raises (migration 0006).
 */
export const emailKeys = {
  configuration: ['email', 'configuration'] as const,
  templates: ['email', 'templates'] as const,
  contactEmails: (contactId: string) => ['contacts', 'emails', contactId] as const,
  outbox: ['contacts', 'outbox'] as const,
};

export function useEmailConfiguration() {
  return useQuery({
    queryKey: emailKeys.configuration,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/email/configuration', { schema: EmailConfigurationResponseSchema, signal }))
        .configuration,
  });
}

export function useSaveEmailConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailConfigurationInput) =>
      apiFetch('/api/email/configuration', {
        method: 'PUT',
        body: input,
        schema: EmailConfigurationResponseSchema,
      }),
    onSuccess: (result) => putAnswer(queryClient, emailKeys.configuration, result.configuration),
  });
}

export function useRemoveEmailConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/email/configuration', { method: 'DELETE' }),
    onSuccess: () => putAnswer(queryClient, emailKeys.configuration, null),
  });
}

export const useTestEmailConfiguration = () =>
  useMutation({
    mutationFn: (input: EmailConfigurationInput) =>
      apiFetch('/api/email/configuration/test', {
        method: 'POST',
        body: input,
        schema: z.object({ sentTo: z.string() }),
      }),
  });

export function useEmailTemplates() {
  return useQuery({
    queryKey: emailKeys.templates,
    queryFn: async ({ signal }) =>
      (
        await apiFetch('/api/email/templates', {
          schema: z.object({ templates: z.array(EmailTemplateSchema) }),
          signal,
        })
      ).templates,
  });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: EmailTemplateInput }) =>
      apiFetch(id ? `/api/email/templates/${id}` : '/api/email/templates', {
        method: id ? 'PUT' : 'POST',
        body: input,
        schema: z.object({ template: EmailTemplateSchema }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.templates }),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/email/templates/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.templates }),
  });
}

/** `enabled: false` while the page deletes the contact itself, so no change notice refetches it into a 404. */
export function useContactEmails(contactId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: emailKeys.contactEmails(contactId),
    queryFn: async ({ signal }) =>
      await apiFetch(`/api/contacts/${contactId}/emails`, {
        schema: ContactEmailsSchema,
        signal,
      }),
    retry: false,
  });
}

export function useSendEmail(contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendEmailInput) =>
      apiFetch(`/api/contacts/${contactId}/emails`, {
        method: 'POST',
        body: input,
        schema: SendEmailResultSchema,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: emailKeys.contactEmails(contactId) });
      void queryClient.invalidateQueries({ queryKey: emailKeys.outbox });
    },
  });
}

/** The outbox, 50 at a time, older pages by cursor. */
export function useOutbox() {
  return useInfiniteQuery({
    queryKey: emailKeys.outbox,
    initialPageParam: null as { beforeSentAt: string; beforeId: string } | null,
    queryFn: ({ pageParam, signal }) => {
      const params = pageParam ? `?${new URLSearchParams(pageParam).toString()}` : '';
      return apiFetch(`/api/email/outbox${params}`, { schema: OutboxPageSchema, signal });
    },
    getNextPageParam: (last) => {
      const tail = last.messages.at(-1);
      return last.hasMore && tail ? { beforeSentAt: tail.sentAt, beforeId: tail.id } : null;
    },
  });
}
