import { z } from 'zod';
import { RecordingRefSchema } from '../recordings/voicemail.ts';
import { VoicemailLeftSchema } from '../recordings/voicemail-drop.ts';
import { AnsweredBySchema } from './answered-by.ts';
import { CallDirectionSchema, CallStatusSchema, TelephonyProviderNameSchema } from './call-status.ts';
import { REQUEST_ID_PATTERN } from './call-guard.ts';
import { DispositionSchema, LeadQualificationSchema } from './disposition.ts';

export const CallSchema = z.object({
  id: z.string(),
  contactId: z.string().nullable(),
  requestId: z.string(),
  provider: TelephonyProviderNameSchema,
  from: z.string(),
  to: z.string(),
  status: CallStatusSchema,
  error: z.string().nullable(),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationSeconds: z.number().int().nullable(),
  /** Who answered, as answering-machine detection reports it after the answer; null until it does. */
  answeredBy: AnsweredBySchema.nullable(),
  /** When a parallel round abandoned the person who answered (decision 026); null otherwise. */
  abandonedAt: z.string().nullable(),
  /** Where the caller ID is ('Denver', 'Colorado'), as the dialer shows it (decision 027); null when unknown. */
  fromPlace: z.string().nullable(),
  /** Placed by us, or a call that came in to one of our numbers (from: the caller; to: our number). */
  direction: CallDirectionSchema,
  /** Whether the call is recorded (Settings → Phone → Call recording; decision 030). */
  recorded: z.boolean(),
  /** What the called person heard first because the law asks for it; null when no disclosure was needed. */
  recordingDisclosure: z.string().nullable(),
  /** The prerecorded voicemail the rep left on the call (its name), and when; null when none was. */
  voicemailLeft: VoicemailLeftSchema.nullable(),
});
export type Call = z.infer<typeof CallSchema>;

/**
 * Click-to-call: a contact (its phone is called) or a number, an optional caller ID
 * (the default one otherwise), and the 8-character request id that makes a double click one call.
 */
export const PlaceCallInputSchema = z
  .object({
    contactId: z.uuid().optional(),
    to: z.string().trim().max(40).optional(),
    from: z.string().trim().max(40).optional(),
    requestId: z.string().regex(REQUEST_ID_PATTERN, 'A request id is 8 letters or digits'),
    /** 'browser': the browser phone connects the call itself (Twilio); otherwise the server asks the provider. */
    via: z.enum(['server', 'browser']).optional(),
    /** The call queue being walked, when the call is made from one: the call carries its id. */
    queueId: z.uuid('Invalid queue id').optional(),
  })
  .refine((c) => c.contactId !== undefined || Boolean(c.to), { message: 'No number entered', path: ['to'] });
export type PlaceCallInput = z.input<typeof PlaceCallInputSchema>;

export const CallResponseSchema = z.object({ call: CallSchema });

export const CallerIdSchema = z.object({
  id: z.string(),
  number: z.string(),
  numberE164: z.string(),
  label: z.string().nullable(),
  isDefault: z.boolean(),
});
export type CallerId = z.infer<typeof CallerIdSchema>;
export const CallerIdInputSchema = z.object({
  number: z
    .string()
    .trim()
    .min(1, 'Phone number is required')
    .max(40)
    .refine((v) => v.replace(/\D/g, '').length >= 7, 'Enter a full phone number'),
  label: z.string().trim().max(100).optional(),
  isDefault: z.boolean().default(false),
});

/** What the calling screens need to know about the instance: which provider, and the caller IDs to choose from. */
export const CallingSetupSchema = z.object({
  provider: TelephonyProviderNameSchema,
  callerIds: z.array(CallerIdSchema),
  /** The caller ID used when none is chosen: the user's default, else the instance's. */
  defaultFrom: z.string().nullable(),
  /** Calls go out from the caller ID nearest the contact (Settings → Phone; decision 027). */
  localPresence: z.boolean(),
});
export const LocalPresenceInputSchema = z.object({ on: z.boolean() });
export type CallingSetup = z.infer<typeof CallingSetupSchema>;

/** A browser-phone token (voice-token function): the identity is the server's, not the browser's. */
export const VoiceTokenSchema = z.object({
  token: z.string(),
  identity: z.string(),
  ttlSeconds: z.number().int(),
});

export const SaveDispositionRequestSchema = z.object({
  contactId: z.uuid().nullable().optional(),
  callId: z.uuid().nullable().optional(),
  disposition: DispositionSchema,
  notes: z.string().trim().max(10_000).optional(),
  callbackDate: z.iso.datetime({ offset: true }).nullish(),
  qualification: LeadQualificationSchema.default('cold'),
  /** The call queue being walked: the disposition carries its id and completes the contact there. */
  queueId: z.uuid('Invalid queue id').nullish(),
  callDurationSeconds: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600)
    .optional(),
});
export type SaveDispositionRequest = z.input<typeof SaveDispositionRequestSchema>;

export const DispositionRecordSchema = z.object({
  id: z.string(),
  callId: z.string().nullable(),
  contactId: z.string().nullable(),
  disposition: z.string(),
  notes: z.string().nullable(),
  isQualified: z.boolean(),
  callbackDate: z.string().nullable(),
  calledAt: z.string(),
  callDurationSeconds: z.number().int().nullable(),
  queueId: z.string().nullable(),
});
export type DispositionRecord = z.infer<typeof DispositionRecordSchema>;

/** One line of the Call History: the contact, the disposition, duration and time. */
export const CallLogLineSchema = z.object({
  key: z.string(),
  callId: z.string().nullable(),
  contactId: z.string().nullable(),
  contactName: z.string().nullable(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  disposition: z.string().nullable(),
  status: CallStatusSchema.nullable(),
  /** Null for a disposition saved without a call. */
  direction: CallDirectionSchema.nullable(),
  answered: z.boolean(),
  /** A person a parallel round could not take: counted apart from answered. */
  abandoned: z.boolean(),
  isQualified: z.boolean(),
  durationSeconds: z.number().int(),
  at: z.string(),
  /** The message the caller left when nobody answered, to play; null when none. */
  voicemail: RecordingRefSchema.nullable(),
  /** The call's recording, to play; null when it was not recorded (or the recording is gone). */
  recording: RecordingRefSchema.nullable(),
});
export type CallLogLine = z.infer<typeof CallLogLineSchema>;

export const DayLogSchema = z.object({
  lines: z.array(CallLogLineSchema),
  stats: z.object({
    total: z.number().int(),
    answered: z.number().int(),
    answerRate: z.string(),
    qualified: z.number().int(),
    qualifiedRate: z.string(),
    totalSeconds: z.number().int(),
    averageSeconds: z.number().int(),
    abandoned: z.number().int(),
  }),
});
export type DayLog = z.infer<typeof DayLogSchema>;

export const DayRangeQuerySchema = z
  .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .refine((r) => new Date(r.from) < new Date(r.to), 'The day must end after it starts')
  .refine(
    (r) => new Date(r.to).getTime() - new Date(r.from).getTime() <= 49 * 3600 * 1000,
    'One day at a time',
  );

/**
 * A contact's calling record for its page: its calls and dispositions, whether its number is do-not-call, and
 * whether it replied STOP to text messages (no SMS goes to it until it replies START).
 */
export const ContactCallingSchema = z.object({
  calls: z.array(CallSchema),
  dispositions: z.array(DispositionRecordSchema),
  doNotCall: z.boolean(),
  smsOptedOut: z.boolean(),
  /** The messages the contact left on calls nobody answered, and the recordings of calls, by call. */
  recordings: z.array(
    z.object({ callId: z.string(), kind: z.enum(['voicemail', 'call']), recording: RecordingRefSchema }),
  ),
});

/** A callback whose date has come: one click from calling back. */
export const DueCallbackSchema = z.object({
  dispositionId: z.string(),
  contactId: z.string(),
  contactName: z.string(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  callbackDate: z.string(),
  notes: z.string().nullable(),
});
export type DueCallback = z.infer<typeof DueCallbackSchema>;
