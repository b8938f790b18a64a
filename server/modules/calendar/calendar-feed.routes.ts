import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import ical from 'ical-generator';
import { z } from 'zod';
import {
  callbackEvent,
  CalendarFeedResponseSchema,
  FEED_MAX_EVENTS,
  FEED_PAST_DAYS,
  type CalendarFeed,
} from '#domain/calendar/callback-feed.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findCallbacksSince } from '../calls/public.ts';
import {
  deleteFeed,
  findFeed,
  findFeedOwner,
  markFeedFetched,
  saveFeed,
} from './calendar-feeds.repository.ts';

const approved = { config: { access: 'approved' as const } };
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** 32 random bytes, base64url: 43 characters, then the extension calendar apps like to see. */
const FeedParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}\.ics$/, 'No such calendar') });

/**
 * The callbacks calendar feed (decision 032), Settings → Integrations → Google Calendar: a secret address (made,
 * shown again, regenerated to revoke, turned off) that any calendar app subscribes to, answering iCalendar with one
 * event per callback still due. The address needs no session: whoever has it reads the owner's callbacks, so it is
 * long, random, found by its hash, and replaced at will.
 */
export function registerCalendarFeedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const feedOf = async (userId: string): Promise<CalendarFeed | null> => {
    const row = await withActor(ctx.db, { kind: 'user', userId }, (trx) => findFeed(trx, userId));
    if (!row) return null;
    return {
      url: `${ctx.publicUrl}/api/calendar/${ctx.secretBox.open(row.token_sealed)}.ics`,
      createdAt: row.created_at.toISOString(),
      lastFetchedAt: row.last_fetched_at?.toISOString() ?? null,
    };
  };

  typed.get(
    '/api/calendar-feed',
    { ...approved, schema: { response: { 200: CalendarFeedResponseSchema } } },
    async (request) => ({ feed: await feedOf(viewerOf(request).userId) }),
  );

  typed.post(
    '/api/calendar-feed',
    { ...approved, schema: { response: { 201: CalendarFeedResponseSchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const token = randomBytes(32).toString('base64url');
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        saveFeed(
          trx,
          { userId, tokenHash: hashOf(token), tokenSealed: ctx.secretBox.seal(token) },
          ctx.clock(),
        ),
      );
      return reply.status(201).send({ feed: await feedOf(userId) });
    },
  );

  typed.delete('/api/calendar-feed', approved, async (request, reply) => {
    const userId = viewerOf(request).userId;
    await withActor(ctx.db, { kind: 'user', userId }, (trx) => deleteFeed(trx, userId));
    return reply.status(204).send();
  });

  typed.get(
    '/api/calendar/:token',
    { config: { access: 'public' }, schema: { params: FeedParams } },
    async (request, reply) => {
      const token = request.params.token.slice(0, -'.ics'.length);
      const userId = await withActor(ctx.db, { kind: 'system' }, (trx) => findFeedOwner(trx, hashOf(token)));
      if (!userId) throw new AppError('NOT_FOUND', 'No such calendar');
      const now = ctx.clock();
      const callbacks = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        await markFeedFetched(trx, userId, now);
        return findCallbacksSince(
          trx,
          userId,
          new Date(now.getTime() - FEED_PAST_DAYS * 86_400_000),
          FEED_MAX_EVENTS,
        );
      });
      const calendar = ical({
        name: 'CallCRM callbacks',
        prodId: { company: 'CallCRM', product: 'callbacks' },
      });
      for (const callback of callbacks) {
        const event = callbackEvent(
          {
            id: callback.id,
            // Joined to its contact, so never null here.
            contactId: callback.contact_id!,
            at: callback.callback_date!,
            firstName: callback.first_name,
            lastName: callback.last_name,
            phone: callback.phone ? formatPhoneForDisplay(callback.phone) : null,
            company: callback.company,
            notes: callback.notes,
          },
          ctx.publicUrl,
        );
        calendar.createEvent({
          id: event.uid,
          start: event.start,
          end: event.end,
          stamp: now,
          summary: event.summary,
          description: event.description,
          url: event.url,
        });
      }
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .send(calendar.toString());
    },
  );
}
