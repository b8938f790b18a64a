import { z } from 'zod';

/**
 * Slack (decision 034): a user's chosen events posted to a Slack incoming webhook (or any chat that takes Slack's
 * incoming-webhook messages) as formatted messages. Pure: the server finds the facts and posts.
 */
export const SlackEventSchema = z.enum([
  'qualified-lead',
  'campaign-finished',
  'campaign-failed',
  'missed-call',
]);
export type SlackEvent = z.infer<typeof SlackEventSchema>;
export const SLACK_EVENTS = SlackEventSchema.options;

export const SLACK_EVENT_LABELS: Record<SlackEvent, string> = {
  'qualified-lead': 'A lead is qualified',
  'campaign-finished': 'A campaign finished',
  'campaign-failed': 'A campaign paused on an error',
  'missed-call': 'A call was missed',
};

export const SlackSettingsInputSchema = z.object({
  /** The incoming webhook; absent to keep the one already saved. */
  webhookUrl: z.string().trim().max(500, 'At most 500 characters.').optional(),
  events: z.array(SlackEventSchema).max(SLACK_EVENTS.length),
});
export type SlackSettingsInput = z.infer<typeof SlackSettingsInputSchema>;

export const SlackConnectionSchema = z.object({
  /** Where messages go, without its secret part (the last segment of the address). */
  destination: z.string(),
  events: z.array(SlackEventSchema),
  connectedAt: z.iso.datetime(),
  lastSentAt: z.iso.datetime().nullable(),
  /** The last failure, in Slack's words, and when; cleared by the next message that goes through. */
  lastError: z.string().nullable(),
  lastErrorAt: z.iso.datetime().nullable(),
});
export type SlackConnection = z.infer<typeof SlackConnectionSchema>;
export const SlackResponseSchema = z.object({ slack: SlackConnectionSchema.nullable() });

/** The address as the card shows it: scheme, host and path without its last (secret) segment. */
export function slackDestination(webhookUrl: string): string {
  const url = new URL(webhookUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  const shown = segments.length > 1 ? `/${segments.slice(0, -1).join('/')}/…` : '/…';
  return `${url.host}${shown}`;
}

export type SlackMessage = { text: string; blocks: unknown[] };

/** Slack's mrkdwn needs &, < and > escaped in text that is not a link. */
export const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const link = (url: string, label: string) => `<${url}|${escapeMrkdwn(label)}>`;

export type QualifiedLeadFacts = {
  contactId: string;
  name: string;
  company: string | null;
  phone: string | null;
  email: string | null;
  notes: string | null;
};

export function qualifiedLeadMessage(lead: QualifiedLeadFacts, appUrl: string): SlackMessage {
  const url = `${appUrl}/contacts/${lead.contactId}`;
  const who = lead.name.trim() || 'A contact';
  const details = [lead.company, lead.phone, lead.email].filter(Boolean).map((d) => escapeMrkdwn(d!));
  const lines = [
    `:star: *Qualified lead:* ${link(url, who)}`,
    details.length ? details.join(' · ') : null,
    lead.notes ? `> ${escapeMrkdwn(lead.notes.slice(0, 500)).replace(/\n/g, '\n> ')}` : null,
  ].filter(Boolean);
  return { text: `Qualified lead: ${who}`, blocks: [section(lines.join('\n'))] };
}

/** A notification the app already makes (campaign finished or paused, missed call), as a message. */
export function noticeMessage(
  event: Exclude<SlackEvent, 'qualified-lead'>,
  notice: { title: string; body: string; link: string | null },
  appUrl: string,
): SlackMessage {
  const icon = {
    'campaign-finished': ':white_check_mark:',
    'campaign-failed': ':warning:',
    'missed-call': ':telephone_receiver:',
  }[event];
  const title = notice.link ? link(`${appUrl}${notice.link}`, notice.title) : escapeMrkdwn(notice.title);
  return {
    text: notice.title,
    blocks: [section(`${icon} *${title}*\n${escapeMrkdwn(notice.body)}`)],
  };
}

export function testMessage(appUrl: string): SlackMessage {
  return {
    text: 'CallCRM is connected to this channel.',
    blocks: [
      section(
        `:wave: *CallCRM is connected to this channel.* Messages you chose will appear here. ${link(`${appUrl}/settings?tab=integrations`, 'Change them')}`,
      ),
    ],
  };
}

/**
 * Whether Slack's answer to a post means trying again later is pointless: the address is gone or wrong
 * (`no_service`, `no_team`, `invalid_token`, `channel_is_archived`… with 400, 403, 404 or 410). Rate limits (429)
 * and Slack's own errors (5xx) are worth retrying.
 */
export function isPermanentSlackFailure(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
