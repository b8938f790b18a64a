import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy the app runs under. Scripts only from this server (and the few inline scripts of
 * index.html, by hash); styles may be inline (components set them at run time); the browser phone's Twilio Voice
 * SDK talks to *.twilio.com over https and secure WebSockets and plays its ringtones from there; QR codes and
 * favicons are data URLs. Nothing may frame the app, and forms post only here.
 */
export function contentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  const scripts = ["'self'", ...inlineScriptHashes.map((h) => `'${h}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' https://*.twilio.com wss://*.twilio.com",
    "media-src 'self' blob: https://*.twilio.com",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP hashes of a page's inline scripts (the theme script of index.html), so they may run and nothing else. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}`,
  );
}

const ONE_YEAR = 365 * 24 * 3600;

/**
 * Headers on every answer: no MIME sniffing, no referrer to other sites, no framing, the CSP; API answers are never
 * cached; over https (directly, or behind a trusted proxy that says so) browsers are told to use https only (HSTS).
 */
export function registerSecurityHeaders(app: FastifyInstance, inlineHashes: readonly string[]): void {
  const csp = contentSecurityPolicy(inlineHashes);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'same-origin');
    void reply.header('x-frame-options', 'DENY');
    void reply.header('content-security-policy', csp);
    if (request.protocol === 'https')
      void reply.header('strict-transport-security', `max-age=${ONE_YEAR}; includeSubDomains`);
    if ((request.routeOptions.url ?? request.url).startsWith('/api/'))
      void reply.header('cache-control', 'no-store');
  });
}
