import { z } from 'zod';

/** What a caller hears before leaving a message when the user has not written or recorded a greeting. */
export const DEFAULT_VOICEMAIL_GREETING =
  'Sorry, nobody can take your call right now. Please leave a message after the tone.';

/** The longest greeting, written or recorded, and the longest message a caller may leave. */
export const GREETING_MAX_CHARS = 500;
export const GREETING_MAX_SECONDS = 120;
export const VOICEMAIL_MAX_SECONDS = 120;
/** A recorded greeting's largest upload: two minutes of 48 kHz 16-bit mono WAV, with room for its header. */
export const GREETING_MAX_BYTES = 12 * 1024 * 1024;
/** A message shorter than this is a hang-up at the tone, not a voicemail. */
export const VOICEMAIL_MIN_SECONDS = 1;

export const VOICEMAIL_MESSAGES = {
  greetingSaved: 'Greeting saved',
  recordingSaved: 'Recorded greeting saved',
  recordingRemoved: 'Recorded greeting removed: callers hear the written greeting',
  notWav: 'The greeting must be a WAV recording',
  tooLong: `A greeting can be at most ${GREETING_MAX_SECONDS} seconds`,
  tooShort: 'The recording is empty',
  /** What the caller hears once the message is left. */
  thanks: 'Thank you for your message. Goodbye.',
  recordingNotFound: 'Recording not found',
} as const;

/** A stored audio file, as the browser plays it: the URL streams it (with range requests) to its owner. */
export const RecordingRefSchema = z.object({
  id: z.string(),
  durationSeconds: z.number(),
  url: z.string(),
  createdAt: z.string(),
});
export type RecordingRef = z.infer<typeof RecordingRefSchema>;

/** Settings → Phone → Voicemail greeting: the written greeting, and the recorded one callers hear instead. */
export const VoicemailGreetingSchema = z.object({
  /** The written greeting; null: the default. */
  text: z.string().nullable(),
  defaultText: z.string(),
  recording: RecordingRefSchema.nullable(),
});
export type VoicemailGreeting = z.infer<typeof VoicemailGreetingSchema>;

export const SaveGreetingTextSchema = z.object({
  text: z
    .string()
    .trim()
    .max(GREETING_MAX_CHARS, `A greeting can be at most ${GREETING_MAX_CHARS} characters`),
});

/** How long a recording lasts, as the call logs show it: 0:07, 1:05. */
export function formatRecordingLength(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
