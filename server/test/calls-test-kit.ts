import type pg from 'pg';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { encodeWav } from '#domain/recordings/wav.ts';
import type { App } from '../app.ts';
import { withActor } from '../db/database.ts';
import { isBrowserOpen } from '../realtime/browser-presence.repository.ts';
import { asCookie, type Session, type TestContext } from './test-app.ts';

/** Places a call as `as` (POST /api/calls with a fresh request id). */
export const placeCallAs = (app: App, as: Session, payload: object) =>
  app.inject({
    method: 'POST',
    url: '/api/calls',
    headers: asCookie(as),
    payload: { requestId: newRequestId(), ...payload },
  });

/** A call's row as the database holds it. */
export const callRowOf = async (ctx: TestContext, id: string) =>
  (
    await ctx.db.admin.query(
      'select status, duration_seconds, answered_at, ended_at, error from calls where id = $1',
      [id],
    )
  ).rows[0] as {
    status: string;
    duration_seconds: number | null;
    answered_at: Date | null;
    ended_at: Date | null;
    error: string | null;
  };

/** Reads until `done` says so, or `ms` have passed (then the last value read). */
export const waitFor = async <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 3000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * The queue's earlier calls, ten hours before `now`: `live` of them reaching a person, one in every `dialsPerLive`
 * dials (two by default). The pacing rings a second line only once a queue has live answers enough for an abandoned
 * call to stay under the cap (32 at 3 %), and more lines the fewer of its dials reach a person. Request ids come from
 * the queue's id, so one user can seed several queues.
 */
export async function seedQueueHistory(
  admin: pg.Pool,
  queueId: string,
  live: number,
  now: Date,
  dialsPerLive = 2,
) {
  await admin.query(
    `insert into calls (user_id, request_id, provider, from_number, to_number, status, started_at, updated_at,
       queue_id, answered_by)
     select q.user_id, left(md5(q.id::text || g), 8), 'simulator', '+15550100000', '+1555020' || lpad(g::text, 4, '0'),
       'completed', $2, $2, q.id, case when g % $4::int = 0 then 'human' else null end
     from power_dialer_queues q, generate_series(1, $3::int * $4::int) g where q.id = $1`,
    [queueId, new Date(now.getTime() - 10 * 3600_000), live, dialsPerLive],
  );
}

/** A WAV recording of a quiet tone lasting `seconds`, as the browser's recorder uploads one. */
export const toneWav = (seconds: number, rate = 8000) =>
  encodeWav(
    Float32Array.from({ length: seconds * rate }, (_, i) => 0.2 * Math.sin(i / 5)),
    rate,
  );

/**
 * A browser of the user has the app open (what its event stream does: realtime.routes.ts), so a call coming in
 * rings rather than going straight to voicemail. Resolves once the database shows it; answers the closing.
 */
export async function openBrowserOf(app: App, userId: string): Promise<() => void> {
  const closed = app.ctx.presence.opened(userId);
  const seen = await waitFor(
    () => withActor(app.ctx.db, { kind: 'system' }, (trx) => isBrowserOpen(trx, userId)),
    Boolean,
  );
  if (!seen) throw new Error('the browser presence lock was not seen');
  return closed;
}
