import { z } from 'zod';
import { WEBHOOK_EVENTS, WebhookEventTypeSchema } from './webhook-delivery.ts';

/** At most this many endpoints per user. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

const EventsSchema = z
  .array(WebhookEventTypeSchema)
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENTS.length);

export const WebhookEndpointInputSchema = z.object({
  url: z.string().trim().min(1, 'Enter the address to send to.').max(2000, 'At most 2,000 characters.'),
  description: z.string().trim().max(200, 'At most 200 characters.').default(''),
  events: EventsSchema,
});
export type WebhookEndpointInput = z.input<typeof WebhookEndpointInputSchema>;

export const WebhookEndpointPatchSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the address to send to.')
    .max(2000, 'At most 2,000 characters.')
    .optional(),
  description: z.string().trim().max(200, 'At most 200 characters.').optional(),
  events: EventsSchema.optional(),
  /** Turning an endpoint back on resumes its pending deliveries. */
  enabled: z.boolean().optional(),
});
export type WebhookEndpointPatch = z.infer<typeof WebhookEndpointPatchSchema>;

export const WebhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventTypeSchema),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  eventAt: z.iso.datetime(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookEndpointListSchema = z.object({ endpoints: z.array(WebhookEndpointSchema) });
export const WebhookEndpointResponseSchema = z.object({ endpoint: WebhookEndpointSchema });
/** The endpoint's signing secret, shown to its owner when they ask (and once when it is made). */
export const WebhookSecretSchema = z.object({ secret: z.string() });
export const WebhookDeliveryPageSchema = z.object({
  deliveries: z.array(WebhookDeliverySchema),
  next: z.string().nullable(),
});
