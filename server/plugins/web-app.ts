import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ApiErrorBody } from '#domain/errors/error-codes.ts';

/**
 * Serves the built SPA (dist/web) and answers unknown non-API GETs with index.html so the router can take them.
 * Hashed assets are cached for a year; index.html never. Assets go out brotli- or gzip-compressed, as the
 * request's Accept-Encoding allows (decision 012).
 */
export async function registerWebApp(app: FastifyInstance, webDist: string | null): Promise<void> {
  const root = webDist && existsSync(path.join(webDist, 'index.html')) ? path.resolve(webDist) : null;
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside every asset (vite.config.ts); the one the browser accepts is sent.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api';
    if (!isApi && root && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
    }
    const body: ApiErrorBody = {
      code: 'NOT_FOUND',
      message: `No route ${request.method} ${request.url.split('?')[0]}`,
    };
    return reply.status(404).send(body);
  });
}
