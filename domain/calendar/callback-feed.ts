import { z } from 'zod';

/**
 * The callbacks calendar feed (decision 032): each callback still due is one event at its time, as long as
 * CALLBACK_EVENT_MINUTES, named for whom to call, with their number, company and notes and a link back to the
 * contact. Pure: the server renders the events as iCalendar.
 */
export const CALLBACK_EVENT_MINUTES = 15;
/** Callbacks this many days past are still in the feed (then they drop off); every one to come is. */
export const FEED_PAST_DAYS = 30;
/** At most this many events in one feed. */
export const FEED_MAX_EVENTS = 2000;

export type FeedCallback = {
  id: string;
  contactId: string;
  at: Date;
  firstName: string;
  lastName: string;
  phone: string | null;
  company: string | null;
  notes: string | null;
};

export type FeedEvent = {
  /** Stable across fetches, so a calendar updates the event rather than adding another. */
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  url: string;
};

export function callbackEvent(callback: FeedCallback, appUrl: string): FeedEvent {
  const name = `${callback.firstName} ${callback.lastName}`.trim();
  const url = `${appUrl.replace(/\/$/, '')}/contacts/${callback.contactId}`;
  const lines = [
    callback.phone ? `Call ${callback.phone}` : 'No phone number on the contact',
    callback.company ? `Company: ${callback.company}` : null,
    callback.notes ? `Notes: ${callback.notes}` : null,
    `Open in CallCRM: ${url}`,
  ];
  return {
    uid: `callback-${callback.id}@callcrm`,
    start: callback.at,
    end: new Date(callback.at.getTime() + CALLBACK_EVENT_MINUTES * 60_000),
    summary: `Call back ${name || callback.phone || 'a contact'}`,
    description: lines.filter((l) => l !== null).join('\n'),
    url,
  };
}

/** The feed as its owner sees it in Settings → Integrations: the secret address to subscribe to. */
export const CalendarFeedSchema = z.object({
  url: z.string(),
  createdAt: z.string(),
  /** When a calendar app last fetched it (null: never yet). */
  lastFetchedAt: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof CalendarFeedSchema>;
export const CalendarFeedResponseSchema = z.object({ feed: CalendarFeedSchema.nullable() });
