import { buildCallLog, callStats } from '#domain/calls/call-log.ts';
import type { DayLog } from '#domain/calls/call.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { findDay } from './day-log.repository.ts';
import { recordingUrl } from '../recordings/public.ts';

/**
 * One day of a user's calling as the Call Logs dashboard and the Reports overview both read it (
 * Decision 000 "Answered"): each call with the disposition saved for it, dispositions saved without a
 * call, the 60 s merge, and the day's counts. One function, so the two screens never disagree.
 */
const recordingRef = (call: {
  recording_id: string | null;
  recording_seconds: string | number | null;
  recording_at: Date | null;
}) =>
  call.recording_id && call.recording_at
    ? {
        id: call.recording_id,
        durationSeconds: Number(call.recording_seconds),
        url: recordingUrl(call.recording_id),
        createdAt: new Date(call.recording_at).toISOString(),
      }
    : null;

export async function findDayLog(db: DbExecutor, userId: string, from: Date, to: Date): Promise<DayLog> {
  const { calls, dispositions } = await findDay(db, userId, from, to);
  const entries = buildCallLog(
    calls.map((c) => ({
      id: c.id,
      contactId: c.contact_id,
      startedAt: c.started_at,
      durationSeconds: c.duration_seconds,
      connected: c.answered_at !== null,
      abandoned: c.abandoned_at !== null,
    })),
    dispositions.map((d) => ({
      id: d.id,
      callId: d.call_id,
      contactId: d.contact_id,
      disposition: d.disposition,
      isQualified: d.is_qualified,
      calledAt: d.called_at,
      callDurationSeconds: d.call_duration,
    })),
  );
  const callsById = new Map(calls.map((c) => [c.id, c]));
  const dispositionsById = new Map(dispositions.map((d) => [d.id, d]));
  const lines = entries.map((e) => {
    const call = callsById.get(e.key);
    const source = call ?? dispositionsById.get(e.key);
    const named = source?.first_name !== null && source?.first_name !== undefined;
    return {
      key: e.key,
      callId: call?.id ?? null,
      contactId: e.contactId,
      contactName: named ? `${source.first_name} ${source.last_name ?? ''}`.trim() : null,
      // The other party: the number called, or the caller of a call that came in.
      phone:
        (call?.direction === 'inbound' ? call.from_number : call?.to_number) ??
        dispositionsById.get(e.key)?.phone ??
        null,
      direction: call?.direction ?? null,
      company: source?.company ?? null,
      disposition: e.disposition,
      status: call?.status ?? null,
      answered: e.answered,
      abandoned: e.abandoned,
      isQualified: e.isQualified,
      durationSeconds: e.durationSeconds,
      at: e.at.toISOString(),
      voicemail: call?.recording_kind === 'voicemail' ? recordingRef(call) : null,
      recording: call?.recording_kind === 'call' ? recordingRef(call) : null,
    };
  });
  return { lines, stats: callStats(entries) };
}
