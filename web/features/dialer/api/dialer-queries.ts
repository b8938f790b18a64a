import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ContactsPageSchema } from '#domain/contacts/contact-list.schema.ts';
import { DialerContactResultSchema, type DialerContactInput } from '#domain/dialer/dialer-contact.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/**
 * The dialer's contacts: the least recently called first (never called counts as oldest), a page of 100 at a
 * time. Keyed under 'contacts' so imports, new contacts and calls refresh it.
 */
export function useDialerContacts(search: string) {
  return useQuery({
    queryKey: ['contacts', 'dialer', search],
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/contacts?${new URLSearchParams({ sort: 'lastCallDate', dir: 'asc', ...(search ? { search } : {}) }).toString()}`,
        { schema: ContactsPageSchema, signal },
      ),
  });
}

export function useAddDialerContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DialerContactInput) =>
      apiFetch('/api/dialer/contacts', { method: 'POST', body: input, schema: DialerContactResultSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['contacts'] }),
  });
}
