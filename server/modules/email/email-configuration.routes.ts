import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmailConfigurationInputSchema,
  EmailConfigurationResponseSchema,
} from '#domain/email/email.schema.ts';
import { isAllowedMailHost, mailHostNotAllowed } from '#domain/email/mail-hosts.ts';
import { AppError } from '../../errors/app-error.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { MailDeliveryError, type SmtpSettings } from '../../mail/smtp-sender.ts';
import {
  deleteEmailConfiguration,
  findEmailConfiguration,
  findSealedPassword,
  upsertEmailConfiguration,
} from './email-configuration.repository.ts';

const approved = { config: { access: 'approved' as const } };
/** The operator's host list (SMTP_ALLOWED_HOSTS), checked as a field error before anything is saved or tried. */
function requireAllowedHost(ctx: AppContext, host: string): void {
  if (isAllowedMailHost(host, ctx.smtpAllowedHosts)) return;
  const message = mailHostNotAllowed(ctx.smtpAllowedHosts ?? []);
  throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'body.server', message }] });
}

const passwordRequired = () =>
  new AppError('VALIDATION_FAILED', 'Password is required', {
    issues: [{ path: 'body.password', message: 'Password is required' }],
  });

/** Settings → Email, e-mail configuration: one per user, the password sealed. */
export function registerEmailConfigurationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/email/configuration',
    { ...approved, schema: { response: { 200: EmailConfigurationResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { configuration: await asUser(userId, (trx) => findEmailConfiguration(trx, userId)) };
    },
  );

  typed.put(
    '/api/email/configuration',
    {
      ...approved,
      schema: { body: EmailConfigurationInputSchema, response: { 200: EmailConfigurationResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const input = request.body;
      requireAllowedHost(ctx, input.server);
      const configuration = await asUser(userId, async (trx) => {
        const sealed = input.password
          ? ctx.secretBox.seal(input.password)
          : await findSealedPassword(trx, userId);
        if (!sealed) throw passwordRequired();
        await upsertEmailConfiguration(
          trx,
          userId,
          {
            email: input.email,
            username: input.username || null,
            fromName: input.fromName || null,
            server: input.server,
            port: input.port,
            passwordSealed: sealed,
          },
          ctx.clock(),
        );
        return findEmailConfiguration(trx, userId);
      });
      return { configuration };
    },
  );

  typed.delete('/api/email/configuration', approved, async (request, reply) => {
    const userId = viewerOf(request).userId;
    const deleted = await asUser(userId, (trx) => deleteEmailConfiguration(trx, userId));
    if (!deleted) throw new AppError('NOT_FOUND', 'No mail server is configured');
    return reply.status(204).send();
  });

  /**
   * "Send test e-mail": the settings in the form (the stored password when the field is empty) are tried for real,
   * by sending a short message to the configured address. Nothing is saved.
   */
  typed.post(
    '/api/email/configuration/test',
    {
      ...approved,
      schema: { body: EmailConfigurationInputSchema, response: { 200: z.object({ sentTo: z.string() }) } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      requireAllowedHost(ctx, request.body.server);
      const settings = await asUser(userId, (trx) => settingsFromForm(trx, userId, request.body));
      try {
        await ctx.sendSmtp(settings, {
          to: settings.fromAddress,
          subject: 'CallCRM test e-mail',
          text: `This is a test e-mail from CallCRM.\n\nYour mail server ${settings.host}:${settings.port} accepted it, so e-mails you send to contacts will go out through it.`,
        });
      } catch (error) {
        if (error instanceof MailDeliveryError) throw new AppError('MAIL_FAILED', error.message);
        throw error;
      }
      return { sentTo: settings.fromAddress };
    },
  );

  async function settingsFromForm(
    trx: Parameters<typeof findSealedPassword>[0],
    userId: string,
    input: z.output<typeof EmailConfigurationInputSchema>,
  ): Promise<SmtpSettings> {
    let password = input.password;
    if (!password) {
      const sealed = await findSealedPassword(trx, userId);
      if (!sealed) throw passwordRequired();
      password = ctx.secretBox.open(sealed);
    }
    return {
      host: input.server,
      port: input.port,
      username: input.username || input.email,
      password,
      fromAddress: input.email,
      fromName: input.fromName || null,
    };
  }
}
