import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiKeyListSchema, CreatedApiKeySchema, type CreateApiKey } from '#domain/api-keys/api-key.ts';
import { apiFetch } from '../../../lib/api-client.ts';

const keysKey = ['api-keys'] as const;

/** The user's personal API keys (decision 033), with when each was last used. */
export const useApiKeys = () =>
  useQuery({
    queryKey: keysKey,
    queryFn: ({ signal }) => apiFetch('/api/api-keys', { schema: ApiKeyListSchema, signal }),
  });

/** Makes a key; the answer carries the key itself, this once. */
export function useMakeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKey) =>
      apiFetch('/api/api-keys', { method: 'POST', body: input, schema: CreatedApiKeySchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/api-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keysKey }),
  });
}
