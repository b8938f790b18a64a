import { isAnswered } from './disposition.ts';

/** A call record is merged with an unlinked disposition of the same contact within 60 s. */
export const MERGE_WINDOW_MS = 60_000;

export type LoggedCall = {
  id: string;
  contactId: string | null;
  startedAt: Date;
  durationSeconds: number | null;
  connected: boolean;
  /** A person a parallel round could not take (decision 026): counted apart, never as answered. */
  abandoned?: boolean;
};
export type LoggedDisposition = {
  id: string;
  callId: string | null;
  contactId: string | null;
  disposition: string;
  isQualified: boolean;
  calledAt: Date;
  callDurationSeconds: number | null;
};
export type CallLogEntry = {
  key: string;
  contactId: string | null;
  at: Date;
  disposition: string | null;
  isQualified: boolean;
  durationSeconds: number;
  answered: boolean;
  abandoned: boolean;
};

/**
 * The day's call log (decision 000): every call, each with its disposition when one was
 * saved for it (linked by id), plus dispositions saved without a call. A disposition without a link is merged with
 * a call of the same contact within 60 s; otherwise it stands alone.
 */
export function buildCallLog(calls: LoggedCall[], dispositions: LoggedDisposition[]): CallLogEntry[] {
  const byCall = new Map<string, LoggedDisposition>();
  const loose: LoggedDisposition[] = [];
  const callIds = new Set(calls.map((c) => c.id));
  for (const d of dispositions) {
    if (d.callId && callIds.has(d.callId)) {
      const seen = byCall.get(d.callId);
      if (!seen || seen.calledAt < d.calledAt) byCall.set(d.callId, d);
    } else loose.push(d);
  }
  const entries: CallLogEntry[] = calls.map((c) => {
    let d = byCall.get(c.id);
    if (!d) {
      const i = loose.findIndex(
        (x) =>
          x.contactId !== null &&
          x.contactId === c.contactId &&
          Math.abs(x.calledAt.getTime() - c.startedAt.getTime()) <= MERGE_WINDOW_MS,
      );
      if (i >= 0) [d] = loose.splice(i, 1);
    }
    const disposition = d?.disposition ?? null;
    return {
      key: c.id,
      contactId: c.contactId,
      at: c.startedAt,
      disposition,
      isQualified: d?.isQualified ?? false,
      durationSeconds: c.durationSeconds ?? d?.callDurationSeconds ?? 0,
      answered: !c.abandoned && isAnswered({ disposition, connected: c.connected }),
      abandoned: c.abandoned ?? false,
    };
  });
  for (const d of loose) {
    entries.push({
      key: d.id,
      contactId: d.contactId,
      at: d.calledAt,
      disposition: d.disposition,
      isQualified: d.isQualified,
      durationSeconds: d.callDurationSeconds ?? 0,
      answered: isAnswered({ disposition: d.disposition, connected: false }),
      abandoned: false,
    });
  }
  return entries.sort((a, b) => b.at.getTime() - a.at.getTime());
}

export type CallStats = {
  total: number;
  answered: number;
  answerRate: string;
  qualified: number;
  qualifiedRate: string;
  totalSeconds: number;
  averageSeconds: number;
  /** Calls a parallel round abandoned (a person answered and no rep was free), counted apart from answered. */
  abandoned: number;
};

/**
 * The four cards (decision 000 "Answered"): total calls; answered, with the answer rate to one
 * decimal; qualified as a percent of answered; total talk time, with the average over answered calls.
 */
export function callStats(entries: CallLogEntry[]): CallStats {
  const answered = entries.filter((e) => e.answered);
  const qualified = entries.filter((e) => e.isQualified || e.disposition === 'qualified').length;
  const totalSeconds = entries.reduce((sum, e) => sum + e.durationSeconds, 0);
  const percent = (n: number, of: number) => (of === 0 ? '0.0' : ((n / of) * 100).toFixed(1));
  return {
    total: entries.length,
    answered: answered.length,
    answerRate: percent(answered.length, entries.length),
    qualified,
    qualifiedRate: percent(qualified, answered.length),
    totalSeconds,
    averageSeconds: answered.length === 0 ? 0 : Math.round(totalSeconds / answered.length),
    abandoned: entries.filter((e) => e.abandoned).length,
  };
}

/** Durations as m:ss, or mm:ss from ten minutes; an hour and more as h:mm:ss. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
