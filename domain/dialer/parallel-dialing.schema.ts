import { z } from 'zod';
import { AnsweredBySchema } from '../calls/answered-by.ts';
import { CallStatusSchema } from '../calls/call-status.ts';
import { QueueSummarySchema } from '../contacts/queue.schema.ts';
import { LineStateSchema, type LineState } from './dial-round.ts';
import { PACING_RULES } from './pacing.ts';
import { SkippedContactSchema, WalkContactSchema, WalkerSchema } from './queue-walk.ts';

/**
 * Parallel dialing's API (docs/decisions/026-parallel-dialing-pacing.md): a queue's dialing mode and abandonment cap,
 * and a walker's rounds (the lines rung at once, what became of each, the one connected to the rep).
 */
export const DialModeSchema = z.enum(['power', 'parallel']);
export type DialMode = z.infer<typeof DialModeSchema>;

export const DIAL_MODE_LABELS: Record<DialMode, string> = { power: 'Power', parallel: 'Parallel' };

export const DialingSettingsSchema = z.object({
  mode: DialModeSchema,
  /** The queue's cap on abandoned calls in percent (lower than the law's 3 %); null: the law's. */
  capPercent: z
    .number()
    .gt(0, 'The cap must be above 0 %')
    .max(
      PACING_RULES.legalCapPercent,
      `The cap cannot be above ${PACING_RULES.legalCapPercent} % (the law's)`,
    )
    .nullable(),
});
export type DialingSettings = z.infer<typeof DialingSettingsSchema>;

/** What a line's state reads as on the rep's screen. */
export const LINE_STATE_TEXT: Record<LineState, string> = {
  ringing: 'Ringing',
  answered: 'Answered…',
  connected: 'Connected to you',
  released: 'Released (back in the queue)',
  abandoned: 'Abandoned: heard the message',
  machine: 'Answering machine: Voicemail',
  ended: 'No answer',
};

export const RoundLineSchema = z.object({
  callId: z.string(),
  contact: WalkContactSchema,
  state: LineStateSchema,
  status: CallStatusSchema,
  answeredBy: AnsweredBySchema.nullable(),
  /** The disposition saved for the line (by itself for a machine or no answer, by the rep for the connected one). */
  disposition: z.string().nullable(),
  error: z.string().nullable(),
});
export type RoundLine = z.infer<typeof RoundLineSchema>;

export const RoundSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  /** Why this many lines (the pacing rule's words). */
  why: z.string(),
  lines: z.array(RoundLineSchema),
  connectedCallId: z.string().nullable(),
  /** No line is ringing or waiting for detection any more (the connected call may go on). */
  settled: z.boolean(),
});
export type Round = z.infer<typeof RoundSchema>;

const RateSchema = z.object({
  liveAnswers: z.number().int(),
  abandoned: z.number().int(),
  /** Abandoned ÷ live answers in percent, one decimal; null with no live answer yet. */
  percent: z.number().nullable(),
});

/** Where a walker stands in parallel dialing. */
export const ParallelStateSchema = z.object({
  queue: QueueSummarySchema,
  settings: DialingSettingsSchema,
  /** The cap the pacing keeps to (the queue's, never above the law's). */
  capPercent: z.number(),
  abandonment: z.object({ last30Days: RateSchema, last24Hours: RateSchema }),
  /** How many lines the next round rings, and why. */
  next: z.object({ lines: z.number().int(), why: z.string() }),
  /** The walker's latest round (null before the first). */
  round: RoundSchema.nullable(),
  /** Contacts completed as skipped while taking this round's (the walk's own report). */
  skipped: z.array(SkippedContactSchema),
  /** Open contacts wait for their calling hours (the walk's words), when no line could be rung. */
  waiting: z
    .object({ count: z.number().int(), reason: z.string(), nextAt: z.string().nullable() })
    .nullable(),
});
export type ParallelState = z.infer<typeof ParallelStateSchema>;

export const StartRoundSchema = WalkerSchema;
export const WalkerQuerySchema = WalkerSchema;
