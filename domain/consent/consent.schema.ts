import { z } from 'zod';
import { ReachBlockSchema } from './reach-decision.ts';
import { DaySchema } from '../time/zoned-time.ts';

/** One channel's answer for a contact right now, as the contact page and the dialer show it. */
export const ReachAnswerSchema = z.object({
  allowed: z.boolean(),
  code: ReachBlockSchema.nullable(),
  reason: z.string().nullable(),
  /** When a contact outside their calling hours may be reached again. */
  retryAt: z.iso.datetime().nullable(),
});
export type ReachAnswer = z.infer<typeof ReachAnswerSchema>;

/**
 * A contact's express consent to calls and texts, as a user records it: the day the contact gave it and where. It
 * lifts the federal calling hours only; do-not-call, STOP, unsubscribes, state rules and the user's window stay.
 */
export const ExpressConsentInputSchema = z.object({
  givenOn: DaySchema,
  source: z
    .string()
    .trim()
    .min(1, 'Say where the contact gave consent')
    .max(200, 'Keep the source under 200 characters'),
});
export type ExpressConsentInput = z.infer<typeof ExpressConsentInputSchema>;

export const ExpressConsentSchema = ExpressConsentInputSchema.extend({ recordedAt: z.iso.datetime() });
export type ExpressConsent = z.infer<typeof ExpressConsentSchema>;

/** What the consent gate knows of a contact and what it decides now, per channel. */
export const ContactConsentSchema = z.object({
  zones: z.array(z.string()).nullable(),
  /** 'contact': the zone set on the contact; 'number': from the number's prefix; null: unknown. */
  zoneSource: z.enum(['contact', 'number']).nullable(),
  state: z.string().nullable(),
  phoneValid: z.boolean(),
  /** 'Local time 7:42 am, America/Denver', or null when unknown. */
  localTime: z.string().nullable(),
  expressConsent: ExpressConsentSchema.nullable(),
  call: ReachAnswerSchema,
  text: ReachAnswerSchema,
  campaignEmail: ReachAnswerSchema,
  /** A prerecorded message on a call (a voicemail drop): it needs the contact's express consent. */
  prerecorded: ReachAnswerSchema,
});
export type ContactConsent = z.infer<typeof ContactConsentSchema>;

const MinuteSchema = z.number().int().min(0).max(1440);

/** Settings → Phone: the user's own calling window inside the law's, and contacts whose local time is unknown. */
export const ConsentSettingsSchema = z
  .object({
    window: z.object({ from: MinuteSchema, to: MinuteSchema }).nullable(),
    unknownLocalTime: z.enum(['allow', 'block']),
  })
  .refine((s) => !s.window || s.window.from < s.window.to, {
    message: 'Calling hours must end after they start',
    path: ['window'],
  });
export type ConsentSettings = z.infer<typeof ConsentSettingsSchema>;
