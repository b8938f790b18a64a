import type { FastifyInstance } from 'fastify';
import type { ChangeEvent } from '#domain/realtime/change-event.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';

const HEARTBEAT_MS = 25_000;

/**
 * GET /api/events: a Server-Sent Events stream of the changes this viewer may see. The browser invalidates the
 * matching queries on each event; a comment line every 25 s keeps proxies from closing the stream. The stream ends
 * when its viewer is denied or deactivated (the change to their own profile is the last thing it carries: the
 * browser's reconnection is then refused like any other request of theirs), and when the server shuts down. While
 * it is open the viewer counts as having the app open (an incoming call rings rather than going to voicemail).
 */
export function registerRealtimeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/events', { config: { access: 'session' } }, (request, reply) => {
    const viewer = viewerOf(request);
    const state = { userId: viewer.userId, isAdmin: viewer.profile.role === 'admin' };
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write(`retry: 3000\n\n`);

    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      closed();
      raw.end();
    };
    const send = (event: ChangeEvent) => {
      raw.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
      if (event.topic !== 'profiles' || event.id !== state.userId) return;
      // A change to the viewer's own profile (approved, demoted) changes what they may see from now on.
      state.isAdmin = event.role === 'admin';
      if (event.role === 'denied' || event.deactivated) end();
    };
    const closed = ctx.presence.opened(viewer.userId);
    // Ready once the stream gets every change committed from now on (the hub's next look, a few tenths of a second).
    const ready = () => raw.write(`event: ready\ndata: {}\n\n`);
    const unsubscribe = ctx.changes.subscribe({ viewer: () => state, send, ready, close: end });
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    request.raw.on('close', end);
  });
}
