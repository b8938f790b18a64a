import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SendingLimitsSchema, type SendingLimits } from '#domain/campaigns/campaign-pace.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';

/** The user's sending limits (none set: each campaign's own pace alone). */
export async function findSendingLimits(db: DbExecutor, userId: string): Promise<SendingLimits> {
  const row = await db
    .selectFrom('sending_limits')
    .select(['email_per_minute', 'sms_per_minute'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { emailPerMinute: row?.email_per_minute ?? null, smsPerMinute: row?.sms_per_minute ?? null };
}

/**
 * Takes the user's next sending slot under their limit, in the caller's transaction (the row is locked, so two
 * campaigns of the user never take the same slot): null when a message may go now (recorded as the last), or when
 * the next may. No limit set: always now.
 */
export async function takeSendingSlot(
  db: DbExecutor,
  userId: string,
  kind: 'email' | 'sms',
  now: Date,
): Promise<Date | null> {
  const row = await db
    .selectFrom('sending_limits')
    .select(['email_per_minute', 'sms_per_minute', 'email_last_at', 'sms_last_at'])
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  const limit = kind === 'email' ? row?.email_per_minute : row?.sms_per_minute;
  if (!row || !limit) return null;
  const last = kind === 'email' ? row.email_last_at : row.sms_last_at;
  const free = last ? last.getTime() + 60_000 / limit : 0;
  if (free > now.getTime()) return new Date(free);
  await db
    .updateTable('sending_limits')
    .set(kind === 'email' ? { email_last_at: now } : { sms_last_at: now })
    .where('user_id', '=', userId)
    .execute();
  return null;
}

/**
 * Settings → Email and Settings → Phone: at most N campaign e-mails, and text messages, a minute across all the
 * user's campaigns (issue 12). Each user's campaigns of one kind send one at a time (their own job queue), so the
 * limit holds however many campaigns are under way.
 */
export function registerSendingLimitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const approved = { config: { access: 'approved' as const } };
  typed.get(
    '/api/sending-limits',
    { ...approved, schema: { response: { 200: SendingLimitsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return withActor(ctx.db, { kind: 'user', userId }, (trx) => findSendingLimits(trx, userId));
    },
  );
  typed.put(
    '/api/sending-limits',
    { ...approved, schema: { body: SendingLimitsSchema, response: { 200: SendingLimitsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { emailPerMinute, smsPerMinute } = request.body;
      return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        await trx
          .insertInto('sending_limits')
          .values({ user_id: userId, email_per_minute: emailPerMinute, sms_per_minute: smsPerMinute })
          .onConflict((oc) =>
            oc.column('user_id').doUpdateSet({
              email_per_minute: emailPerMinute,
              sms_per_minute: smsPerMinute,
              updated_at: ctx.clock(),
            }),
          )
          .execute();
        return findSendingLimits(trx, userId);
      });
    },
  );
}
