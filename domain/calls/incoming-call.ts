import { z } from 'zod';
import { RecordingRefSchema, VOICEMAIL_MAX_SECONDS } from '../recordings/voicemail.ts';
import { CallSchema } from './call.schema.ts';

/** How long an incoming call rings the user's browser phones before it counts as missed (decision 028). */
export const INCOMING_RING_SECONDS = 25;

/** A call that came in to one of the user's numbers and rings now, with what the screen pops up about the caller. */
export const IncomingCallSchema = z.object({
  call: CallSchema,
  /** The contact whose number called (normalised match), or null: 'Unknown caller'. */
  contact: z
    .object({
      id: z.string(),
      name: z.string(),
      company: z.string().nullable(),
      lastDisposition: z.string().nullable(),
      lastNotes: z.string().nullable(),
      lastCalledAt: z.string().nullable(),
    })
    .nullable(),
  /** Where the caller's number is ('Denver', 'Colorado'), when known. */
  callerPlace: z.string().nullable(),
});
export type IncomingCall = z.infer<typeof IncomingCallSchema>;
export const IncomingCallsResponseSchema = z.object({ calls: z.array(IncomingCallSchema) });

/** The simulator's 'Simulate incoming call': who calls, and which of the user's numbers (the default if none). */
export const SimulateIncomingCallSchema = z.object({
  from: z
    .string()
    .trim()
    .min(1, 'Phone number is required')
    .max(40)
    .refine((v) => v.replace(/\D/g, '').length >= 7, 'Enter a full phone number'),
  to: z.string().trim().max(40).optional(),
  /** If nobody answers, the caller leaves a message this long (0: hangs up at the tone). */
  voicemailSeconds: z.number().int().min(0).max(VOICEMAIL_MAX_SECONDS).default(6),
});
export type SimulateIncomingCall = z.input<typeof SimulateIncomingCallSchema>;

/**
 * A number that called and was missed, not yet called back nor marked done: the newest missed call from it, how
 * many were missed, who it is, and the newest voicemail left on them, if any.
 */
export const MissedCallToReturnSchema = z.object({
  callId: z.string(),
  from: z.string(),
  at: z.string(),
  missed: z.number().int(),
  contact: z.object({ id: z.string(), name: z.string(), company: z.string().nullable() }).nullable(),
  voicemail: RecordingRefSchema.nullable(),
});
export type MissedCallToReturn = z.infer<typeof MissedCallToReturnSchema>;
export const MissedCallsToReturnSchema = z.object({ missed: z.array(MissedCallToReturnSchema) });
/** How far back the list looks: a missed call older than this is no longer a call to return. */
export const MISSED_TO_RETURN_DAYS = 14;

export const INCOMING_MESSAGES = {
  answeredElsewhere: 'This call was answered on another device',
  ended: 'This call has ended',
  simulatorOnly: 'Incoming calls are simulated on the built-in simulator only',
  answerInBrowserPhone: 'On Twilio the browser phone answers the call itself',
  declineInBrowserPhone: 'On Twilio the browser phone declines the call itself',
  notYourNumber: 'That number is not one of your caller IDs',
  noNumber: 'Add a caller ID first: calls come in on your caller IDs',
  /** What a caller hears when the number is nobody's here. */
  notInService: 'The number you have called is not in service.',
  missedNotFound: 'No missed call to return',
} as const;

/**
 * One user who could take a call to a number: they have it as a caller ID, and maybe called this caller from it, or
 * have the caller as a contact.
 */
export type CalleeCandidate = {
  userId: string;
  /** When this user last called the caller from this number; null if never. */
  lastCalledCallerAt: Date | null;
  /** The caller is one of this user's contacts. */
  hasCallerAsContact: boolean;
  /** When the user added this number as a caller ID; null when it is the instance's (they called from it). */
  numberAddedAt: Date | null;
};

/**
 * Who takes a call to a number several users share (decision 028): a contact who calls back reaches the user who
 * last called them from it; else a user who has the caller as a contact; else the one who added the number first.
 * Null when nobody has the number. The instance's own caller ID is nobody's: only a user who called from it is asked.
 */
export function chooseCallee(candidates: readonly CalleeCandidate[]): string | null {
  const ranked = [...candidates].sort(
    (a, b) =>
      (b.lastCalledCallerAt?.getTime() ?? -Infinity) - (a.lastCalledCallerAt?.getTime() ?? -Infinity) ||
      Number(b.hasCallerAsContact) - Number(a.hasCallerAsContact) ||
      (a.numberAddedAt?.getTime() ?? Infinity) - (b.numberAddedAt?.getTime() ?? Infinity) ||
      a.userId.localeCompare(b.userId),
  );
  return ranked[0]?.userId ?? null;
}
