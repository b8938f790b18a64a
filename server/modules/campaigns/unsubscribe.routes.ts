import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SKIP_REASONS } from '#domain/campaigns/email-campaign.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { insertUnsubscribe, unsubscribedAt } from '../consent/public.ts';
import { findRecipientByToken } from './email-sends.repository.ts';
import { leaveSequences } from './email-sequences.repository.ts';

const TokenParams = z.object({ token: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page of its own (no app, no sign-in): the person reading it got an e-mail, they have no account here. */
function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}` +
        `button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:1px solid #888;cursor:pointer}</style>` +
        `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

/** Shows most of an address, so the reader knows which one it is, without printing it whole for anyone with the link. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 2)}${'•'.repeat(Math.max(1, local.length - 2))}@${domain}`;
}

/**
 * Unsubscribe (RFC 8058): every campaign e-mail links to /unsubscribe/{token} and names it in its
 * List-Unsubscribe header with List-Unsubscribe-Post. A GET only shows a page with a button (mail scanners follow
 * links; they must not unsubscribe anyone); the button's POST, or a mail client's one-click POST, records the
 * address as unsubscribed from that sender, so no campaign or sequence of theirs mails it again. Public, no
 * session, no cross-site check (mail clients post from their own servers): the random token is the authority.
 */
export function registerUnsubscribeRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register((scoped, _options, done) => {
    // A one-click POST is a form (RFC 8058: urlencoded or multipart); its content is not needed, only the token.
    scoped.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, _body, parsed) => parsed(null, null),
    );
    registerRoutes(scoped, ctx);
    done();
  });
}

function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const findRecipient = (token: string) =>
    UUID.test(token)
      ? withActor(ctx.db, { kind: 'system' }, async (trx) => {
          const found = await findRecipientByToken(trx, token);
          if (!found?.email) return found && { ...found, unsubscribed: false };
          return { ...found, unsubscribed: (await unsubscribedAt(trx, found.user_id, found.email)) !== null };
        })
      : Promise.resolve(undefined);
  const unknown = (reply: FastifyReply) =>
    page(
      reply,
      404,
      'Link not recognised',
      '<p>This unsubscribe link is not valid. It may have been mistyped.</p>',
    );

  typed.get(
    '/unsubscribe/:token',
    { config: { access: 'public' }, schema: { params: TokenParams } },
    async (request, reply) => {
      const found = await findRecipient(request.params.token);
      if (!found?.email) return unknown(reply);
      if (found.unsubscribed)
        return page(
          reply,
          200,
          'You are unsubscribed',
          `<p>${escapeHtml(maskEmail(found.email))} gets no more of these e-mails.</p>`,
        );
      return page(
        reply,
        200,
        'Unsubscribe',
        `<p>Stop e-mails from this sender to ${escapeHtml(maskEmail(found.email))}?</p>` +
          `<form method="post" action="/unsubscribe/${escapeHtml(request.params.token)}"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  typed.post(
    '/unsubscribe/:token',
    { config: { access: 'public', csrf: false }, schema: { params: TokenParams } },
    async (request, reply) => {
      const found = await findRecipient(request.params.token);
      if (!found?.email) return unknown(reply);
      await withActor(ctx.db, { kind: 'system' }, async (trx) => {
        await insertUnsubscribe(trx, found.user_id, found.email!, found.campaign_id);
        // The address leaves that sender's sequences at once (sends also check, at the moment they reach it).
        await leaveSequences(trx, found.user_id, { email: found.email! }, SKIP_REASONS.unsubscribed);
      });
      return page(
        reply,
        200,
        'You are unsubscribed',
        `<p>${escapeHtml(maskEmail(found.email))} gets no more of these e-mails.</p>`,
      );
    },
  );
}
