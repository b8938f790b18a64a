import { ABANDONED_REDIAL_HOLD } from '../consent/calling-rules.ts';

/**
 * Parallel dialing's pacing (decision 026): how many lines a rep's dialer rings at once, kept under the
 * abandonment cap. A live answer no rep takes within 2 seconds is abandoned; at most 3 % of live answers may be,
 * per campaign over 30 days (47 CFR 64.1200(a)(7)(i), the FTC's Telemarketing Sales Rule 16 CFR 310.4(b)(4)(i)); an
 * abandoned call must play a message naming the caller, and (UK practice, Ofcom's persistent-misuse policy) an
 * abandoned number is not called again within 72 hours. Pure: the server supplies the counts.
 */
export const PACING_RULES = {
  /** The most lines one rep's dialer rings at once. */
  maxLines: 5,
  /** The legal cap on abandoned ÷ live answers, in percent; a queue may set a lower one, never higher. */
  legalCapPercent: 3,
  source: '47 CFR 64.1200(a)(7)(i); 16 CFR 310.4(b)(4)(i)',
  /** A live answer no rep takes within this long is abandoned. */
  answerWindowMs: 2_000,
  /** An abandoned number is not dialled again within this long (the consent gate refuses it meanwhile). */
  redialHoldMs: ABANDONED_REDIAL_HOLD.ms,
  /** Fewer recent dials than this say too little about the answer rate: the dialer rings two lines. */
  fewestDialsToTrust: 20,
  /** Lines rung while the history is too short to trust. */
  linesWhileLearning: 2,
} as const;

export type AnswerCounts = { liveAnswers: number; abandoned: number };

/** Abandoned ÷ live answers, in percent (one decimal); null with no live answer yet. */
export function abandonmentRate({ liveAnswers, abandoned }: AnswerCounts): number | null {
  if (liveAnswers <= 0) return null;
  return Math.round((1000 * abandoned) / liveAnswers) / 10;
}

/** The queue's cap: what it asks for, never above the law's, never zero or less (then the law's). */
export function lawfulCap(requestedPercent: number | null | undefined): number {
  if (requestedPercent == null || !Number.isFinite(requestedPercent) || requestedPercent <= 0)
    return PACING_RULES.legalCapPercent;
  return Math.min(requestedPercent, PACING_RULES.legalCapPercent);
}

export type PacingFacts = {
  mode: 'power' | 'parallel';
  /** The queue's cap in percent (lawfulCap applies). */
  capPercent: number | null;
  last30Days: AnswerCounts;
  last24Hours: AnswerCounts;
  /** The queue's recent dials and how many reached a person, for the answer rate. */
  recent: { dials: number; liveAnswers: number };
  /** Lines of the queue not yet ended that a rep may not take (ringing, undecided, released): each may yet be abandoned. */
  undecidedLines?: number;
};

export type Pacing = { lines: number; why: string };

/**
 * The most lines the cap allows whatever happens: a round of k lines can at worst be answered by k people, one put
 * through and k − 1 abandoned; the undecided lines of other rounds count as abandoned answers too. So k lines are
 * rung only if (abandoned + undecided + k − 1) ÷ (live answers + undecided + k) stays within the cap, over 30 days
 * and over the last 24 hours. One line always may: the rep is free when it rings, so it cannot abandon anyone.
 */
function linesTheCapAllows(facts: PacingFacts, cap: number, upTo: number) {
  const undecided = Math.max(0, facts.undecidedLines ?? 0);
  const fits = (k: number, c: AnswerCounts) =>
    (c.abandoned + undecided + k - 1) * 100 <= cap * (c.liveAnswers + undecided + k) + 1e-9;
  let lines = upTo;
  while (lines > 1 && !(fits(lines, facts.last30Days) && fits(lines, facts.last24Hours))) lines--;
  // For each window too tight for one line more: the live answers that would make room for it, all else equal.
  const need = (c: AnswerCounts) =>
    fits(lines + 1, c)
      ? 0
      : Math.ceil(((c.abandoned + undecided + lines) * 100) / cap - undecided - lines - 1 - 1e-9) -
        c.liveAnswers;
  const monthTight = need(facts.last30Days) > need(facts.last24Hours);
  const tight = monthTight ? facts.last30Days : facts.last24Hours;
  return {
    lines,
    tight,
    window: monthTight ? 'last 30 days' : 'last 24 hours',
    more: Math.max(1, need(tight)),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * How many lines to ring now. Power mode: one. Parallel: about one expected live answer per round (1 ÷ the recent
 * live-answer rate, 1–5 lines; two while fewer than 20 recent dials say what the rate is), but never more than the
 * cap allows in the worst case (`linesTheCapAllows`): so abandonment cannot pass the cap, in either window, however
 * the calls are answered. A new queue, or a new day, rings one line until enough live answers make room.
 */
export function linesToDial(facts: PacingFacts): Pacing {
  if (facts.mode === 'power') return { lines: 1, why: 'Power mode: one line' };
  const cap = lawfulCap(facts.capPercent);
  const learning = facts.recent.dials < PACING_RULES.fewestDialsToTrust || facts.recent.liveAnswers <= 0;
  const ideal = learning
    ? PACING_RULES.linesWhileLearning
    : Math.max(1, Math.min(PACING_RULES.maxLines, Math.floor(facts.recent.dials / facts.recent.liveAnswers)));
  const allowed = linesTheCapAllows(facts, cap, ideal);
  const rate = learning
    ? 'too few dials yet to know the answer rate'
    : `${Math.round((100 * facts.recent.liveAnswers) / facts.recent.dials)} % of recent dials reach a person`;
  if (allowed.lines >= ideal) return { lines: ideal, why: `${plural(ideal, 'line')}: ${rate}` };
  const { abandoned, liveAnswers } = allowed.tight;
  return {
    lines: allowed.lines,
    why:
      `${plural(allowed.lines, 'line')}: another needs ${plural(allowed.more, 'more live answer')} first, ` +
      `to stay under the ${cap} % cap (${allowed.window}: ${abandoned} abandoned of ${liveAnswers})`,
  };
}

/** Whether a live answer that no rep has taken is abandoned yet (2 s after the answer). */
export function isAbandoned(answeredAt: Date, now: Date): boolean {
  return now.getTime() - answeredAt.getTime() >= PACING_RULES.answerWindowMs;
}

/** Whether a number abandoned at `abandonedAt` may be dialled again (72 hours later). */
export function mayRedialAfterAbandon(abandonedAt: Date | null, now: Date): boolean {
  return abandonedAt === null || now.getTime() - abandonedAt.getTime() >= PACING_RULES.redialHoldMs;
}

/**
 * The identification message an abandoned call hears (47 CFR 64.1200(a)(7)(i)(A): the seller's name and a number
 * to call back that can take a do-not-call request), short enough to play within the call.
 */
export function abandonmentMessage(caller: { name: string; number: string }): string {
  const spoken = caller.number.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '$1 $2 $3');
  const who = caller.name.trim() || 'a sales representative';
  return `Hello, this is ${who} calling. Sorry we missed you just now. To call back, or to ask us not to call you again, dial ${spoken}. Goodbye.`;
}
