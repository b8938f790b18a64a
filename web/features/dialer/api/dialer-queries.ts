import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DialerContactResultSchema, type DialerContactInput } from '#domain/dialer/dialer-contact.ts';
import { apiFetch } from '../../../lib/api-client.ts';

export function useAddDialerContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DialerContactInput) =>
      apiFetch('/api/dialer/contacts', { method: 'POST', body: input, schema: DialerContactResultSchema }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['contacts'] }),
        queryClient.invalidateQueries({ queryKey: ['queues'] }),
      ]),
  });
}
