import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  WebhookDeliveryPageSchema,
  WebhookEndpointListSchema,
  WebhookEndpointResponseSchema,
  WebhookSecretSchema,
  type WebhookEndpointInput,
  type WebhookEndpointPatch,
} from '#domain/webhooks/webhook-endpoint.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';

const endpointsKey = ['webhooks'] as const;
const logKey = (id: string) => ['webhooks', id, 'deliveries'] as const;

export const useWebhookEndpoints = () =>
  useQuery({
    queryKey: endpointsKey,
    queryFn: ({ signal }) => apiFetch('/api/webhooks', { schema: WebhookEndpointListSchema, signal }),
  });

/** An endpoint's latest deliveries, refreshed every few seconds while shown (retries happen on their own). */
export const useWebhookLog = (id: string) =>
  useQuery({
    queryKey: logKey(id),
    queryFn: ({ signal }) =>
      apiFetch(`/api/webhooks/${id}/deliveries?limit=20`, { schema: WebhookDeliveryPageSchema, signal }),
    refetchInterval: 3_000,
  });

export function useAddWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) =>
      apiFetch('/api/webhooks', {
        method: 'POST',
        body: input,
        schema: WebhookEndpointResponseSchema.extend(WebhookSecretSchema.shape),
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true }),
  });
}

export function useChangeWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: WebhookEndpointPatch }) =>
      apiFetch(`/api/webhooks/${id}`, {
        method: 'PATCH',
        body: change,
        schema: WebhookEndpointResponseSchema,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    // Its log goes with it: stop asking for it before the endpoint is gone.
    onMutate: async (id: string) => {
      await queryClient.cancelQueries({ queryKey: logKey(id) });
      queryClient.removeQueries({ queryKey: logKey(id) });
    },
    mutationFn: (id: string) => apiFetch(`/api/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: endpointsKey, exact: true }),
  });
}

export const fetchWebhookSecret = (id: string) =>
  apiFetch(`/api/webhooks/${id}/secret`, { schema: WebhookSecretSchema });

export function useRedeliver(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiFetch(`/api/webhook-deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: logKey(endpointId) }),
  });
}
