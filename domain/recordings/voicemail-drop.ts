import { z } from 'zod';
import { formatRecordingLength, RecordingRefSchema } from './voicemail.ts';

/**
 * Voicemail drop (decision 031): messages a rep records once and leaves on an answering machine in one click,
 * moving on at once while the message plays. A prerecorded message needs the contact's express consent.
 */
export const MAX_VOICEMAIL_DROPS = 10;
export const DROP_NAME_MAX_CHARS = 60;
/** A dropped message is a short voicemail: at most two minutes, like a greeting. */
export const DROP_MAX_SECONDS = 120;

export const VOICEMAIL_DROP_MESSAGES = {
  saved: 'Voicemail message saved',
  deleted: 'Voicemail message deleted',
  notWav: 'The voicemail message must be a WAV recording',
  tooLong: `A voicemail message can be at most ${DROP_MAX_SECONDS} seconds`,
  tooShort: 'The recording is empty',
  tooMany: `You can keep up to ${MAX_VOICEMAIL_DROPS} voicemail messages. Delete one first.`,
  notFound: 'Voicemail message not found',
  notAnswered: 'Only an answered call can take a voicemail drop',
  alreadyLeft: 'A voicemail was already left on this call',
  notYours: 'Only a call you placed can take a voicemail drop',
  /** The toast once the message is playing and the rep is free. */
  left: 'Voicemail left',
} as const;

export const DropNameSchema = z
  .string()
  .trim()
  .min(1, 'Name the message')
  .max(DROP_NAME_MAX_CHARS, `Keep the name under ${DROP_NAME_MAX_CHARS} characters`);

/** The name travels in the query string of the upload, whose body is the WAV file itself. */
export const NewDropQuerySchema = z.object({ name: DropNameSchema });

export const VoicemailDropSchema = z.object({
  id: z.string(),
  name: z.string(),
  recording: RecordingRefSchema,
});
export type VoicemailDrop = z.infer<typeof VoicemailDropSchema>;

export const VoicemailDropListSchema = z.object({ drops: z.array(VoicemailDropSchema) });

/** Leave this message on the call (the call's queue, when placed from one, is completed for the contact). */
export const DropVoicemailRequestSchema = z.object({ dropId: z.uuid('Choose a voicemail message') });
export type DropVoicemailRequest = z.infer<typeof DropVoicemailRequestSchema>;

/** What the call keeps of a voicemail left on it. */
export const VoicemailLeftSchema = z.object({ name: z.string(), at: z.string() });

/** The note saved with the call's 'voicemail' disposition. */
export const voicemailLeftNote = (name: string, seconds: number) =>
  `Voicemail left: “${name}” (${formatRecordingLength(seconds)})`;
