import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DEFAULT_API_KEY_REQUESTS_PER_MINUTE, keyMayReach } from '#domain/api-keys/api-key.ts';
import { isApproved } from '#domain/auth/roles.ts';
import type { ApiErrorBody } from '#domain/errors/error-codes.ts';
import type { AppContext } from '../../app-context.ts';
import { resolveViewer, SESSION_COOKIE_PREFIX } from '../auth/public.ts';

/** Where the browsable reference lives (outside /api/, so its pages and assets are not API routes); it reads the
 * same document at /api-docs/json. */
export const API_DOCS_PATH = '/api-docs';
export const OPENAPI_PATH = '/api/openapi.json';

/** The tag of a route: the part of the path after /api/ (contacts, calls, queues…), which groups the reference. */
const tagOf = (url: string) => url.split('/')[2] ?? 'api';

/**
 * The API describes itself (decision 014). Every route already validates its input with zod; @fastify/swagger
 * collects those schemas as routes are registered and turns them into an OpenAPI 3 document, served to signed-in,
 * approved users at /api/openapi.json, with Swagger UI at /api-docs. Register before any route.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'CallCRM API',
        version: '1',
        description:
          'Every route of this server. Two ways in. A script or another tool uses a personal API key: make one in ' +
          'Settings → Integrations → API keys (read only, or read and write; shown once) and send it as ' +
          '`Authorization: Bearer ccrm_…`, e.g. `curl -H "Authorization: Bearer $CALLCRM_KEY" ' +
          'https://your-server/api/contacts`. A key reaches the routes marked with the apiKey scheme, only its ' +
          "user's data, never sign-in, sessions, keys or administration; it may make " +
          `${DEFAULT_API_KEY_REQUESTS_PER_MINUTE} requests a minute by default (429 with Retry-After past that). ` +
          'A browser signs in instead (POST /api/auth/sign-in/email) and carries the session cookie; its requests ' +
          'that change something must send an Origin header naming this server. Errors answer ' +
          '{ code, message, issues? }.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: `${SESSION_COOKIE_PREFIX}.session_token` },
          apiKey: { type: 'http', scheme: 'bearer', description: 'A personal API key (ccrm_…).' },
        },
      },
    },
    hideUntagged: false,
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const schema = output.schema as Record<string, unknown>;
      const access = (input.route.config as { access?: string } | undefined)?.access;
      const byKey = keyMayReach({
        url: input.url,
        access: access ?? 'public',
        hidden: Boolean(input.schema?.hide),
      });
      const security: Record<string, string[]>[] = byKey
        ? [{ session: [] }, { apiKey: [] }]
        : [{ session: [] }];
      return {
        ...output,
        schema: {
          ...schema,
          tags: [tagOf(input.url)],
          ...(access && access !== 'public' && { security }),
        },
      };
    },
  });
}

/** The document and the browsable page; after every route is registered. */
export async function registerApiDocsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(OPENAPI_PATH, { config: { access: 'approved' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  // The page is for people who can use the API: an approved account. Anyone else is sent to sign in.
  const approvedOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = await resolveViewer(
      ctx,
      request,
      (cookies) => void reply.header('set-cookie', cookies),
    ).catch(() => null);
    if (viewer && isApproved(viewer.profile.role)) return;
    if (request.url === API_DOCS_PATH || request.url === `${API_DOCS_PATH}/`) return reply.redirect(`/auth`);
    const body: ApiErrorBody = { code: 'UNAUTHENTICATED', message: 'Please sign in.' };
    return reply.status(401).send(body);
  };
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PATH,
    uiConfig: { docExpansion: 'none', deepLinking: true },
    // Fastify runs async hooks (this one, which can end the request); the plugin's type names only the callback form.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    uiHooks: { onRequest: approvedOnly },
    theme: { title: 'CallCRM API' },
  });
}
