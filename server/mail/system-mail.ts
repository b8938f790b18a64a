import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { insertOutboxMessage } from './outbox.repository.ts';
import { withActor, type Db } from '../db/database.ts';

export type SystemMessage = { kind: string; to: string; subject: string; text: string };
export type DeliveryResult = { delivered: 'smtp' | 'outbox' };

/**
 * System mail (approval notices, password-reset links): through the instance's mail server when SYSTEM_SMTP_URL is
 * set, otherwise to the outbox that admins can read in the product. A failing mail server never loses the message:
 * it lands in the outbox and the failure is logged.
 */
export type SystemMailer = {
  isConfigured: boolean;
  send: (message: SystemMessage) => Promise<DeliveryResult>;
};

export function createSystemMailer(options: {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): SystemMailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(withTimeouts(options.smtpUrl)) : null;

  async function toOutbox(message: SystemMessage): Promise<DeliveryResult> {
    await withActor(options.db, { kind: 'system' }, (trx) =>
      insertOutboxMessage(trx, { ...message, from: options.from }),
    );
    return { delivered: 'outbox' };
  }

  return {
    isConfigured: transport !== null,
    async send(message) {
      if (!transport) return toOutbox(message);
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
        return { delivered: 'smtp' };
      } catch (error) {
        options.log.error({ err: error, kind: message.kind }, 'system mail failed; kept in the outbox');
        return toOutbox(message);
      }
    },
  };
}

/** A hanging mail server must not hold an admin's click for minutes (nodemailer's defaults): bound every phase. */
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, ms] of [
    ['connectionTimeout', 10_000],
    ['greetingTimeout', 10_000],
    ['socketTimeout', 20_000],
  ] as const) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(ms));
  }
  return url.toString();
}
