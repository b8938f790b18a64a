import { z } from 'zod';

/**
 * Outgoing webhooks (decision 035, proposed): the events a user's endpoints may subscribe to, the message each one
 * receives, and the delivery rules: retries with back-off for 24 hours, events of one contact in the order they
 * happened, an endpoint disabled after 3 days of nothing but failures. Pure: the server stores, signs and sends.
 */
export const WebhookEventTypeSchema = z.enum([
  'call.ended',
  'disposition.saved',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'sms.received',
  'opt-out.recorded',
  'campaign.finished',
  'voicemail.received',
]);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;
/** Every event an endpoint may subscribe to, in the order the form lists them. */
export const WEBHOOK_EVENTS: readonly WebhookEventType[] = WebhookEventTypeSchema.options;

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'call.ended': 'A call ended',
  'disposition.saved': 'A call outcome was saved',
  'contact.created': 'A contact was created',
  'contact.updated': 'A contact was changed',
  'contact.deleted': 'A contact was deleted',
  'sms.received': 'A text message came in',
  'opt-out.recorded': 'A contact opted out',
  'campaign.finished': 'A campaign finished',
  'voicemail.received': 'A voicemail was left',
};

/** Waits between attempts: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h; never past 24 h after the event. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;
export const RETRY_FOR_MS = 24 * 3_600_000;
/** An endpoint whose every delivery failed for this long is disabled, and its owner told. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;
/**
 * How long the delivery log keeps a delivery that is done with (delivered, or given up), counted from its event or
 * from its last redelivery; one still being tried is kept however old.
 */
export const DELIVERY_LOG_KEPT_DAYS = 30;

/**
 * When to try a delivery again after `attempts` failed attempts, or null when it has had its 24 hours (it is then
 * marked failed; the owner can redeliver it from the log). The last try is moved up to the 24-hour mark rather than
 * skipped.
 */
export function nextAttemptAt(eventAt: Date, attempts: number, failedAt: Date): Date | null {
  const deadline = eventAt.getTime() + RETRY_FOR_MS;
  if (attempts < 1 || failedAt.getTime() >= deadline) return null;
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1]!;
  return new Date(Math.min(failedAt.getTime() + delay, deadline));
}

/** Whether an endpoint that has failed without a success since `failingSince` is to be disabled now. */
export function shouldDisable(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
}

export type PendingDelivery = {
  id: string;
  /** Deliveries with the same key (a contact) go in order; null: no order to keep. */
  orderKey: string | null;
  /** The event's place in the endpoint's sequence. */
  sequence: number;
  dueAt: Date;
};

/**
 * Which pending deliveries of one endpoint may be attempted now: for each contact only its earliest (a later event
 * of the same contact waits until the earlier one is delivered or given up), and only those due. Deliveries about no
 * contact go whenever they are due.
 */
export function deliverableNow(pending: readonly PendingDelivery[], now: Date): PendingDelivery[] {
  const first = new Map<string, PendingDelivery>();
  const ready: PendingDelivery[] = [];
  for (const delivery of [...pending].sort((a, b) => a.sequence - b.sequence)) {
    if (delivery.orderKey !== null) {
      if (first.has(delivery.orderKey)) continue;
      first.set(delivery.orderKey, delivery);
    }
    if (delivery.dueAt.getTime() <= now.getTime()) ready.push(delivery);
  }
  return ready;
}

/**
 * When the next of these pending deliveries can go: the soonest due among each contact's earliest and those about no
 * contact (a later event of a contact waits for its earlier one, whatever its own time says). Null when none.
 */
export function nextDueAt(pending: readonly PendingDelivery[]): Date | null {
  const seen = new Set<string>();
  let soonest: Date | null = null;
  for (const delivery of [...pending].sort((a, b) => a.sequence - b.sequence)) {
    if (delivery.orderKey !== null) {
      if (seen.has(delivery.orderKey)) continue;
      seen.add(delivery.orderKey);
    }
    if (soonest === null || delivery.dueAt < soonest) soonest = delivery.dueAt;
  }
  return soonest;
}
