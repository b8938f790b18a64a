import tls from 'node:tls';
import nodemailer from 'nodemailer';
import { IMPLICIT_TLS_PORT } from '#domain/email/email.schema.ts';

export type SmtpSettings = {
  host: string;
  port: number;
  username: string;
  password: string;
  fromAddress: string;
  fromName: string | null;
};
export type OutgoingMail = { to: string; subject: string; text: string };
export type SmtpSender = (settings: SmtpSettings, mail: OutgoingMail) => Promise<{ messageId: string }>;

/** A mail server said no, or could not be reached; `message` is the reason a person can act on. */
export class MailDeliveryError extends Error {}

/**
 * Sends through a user's own mail server (issue 4). TLS is required (DECISIONS.md: the spec's "SSL"): implicit TLS
 * on 465, STARTTLS everywhere else, refusing a server that offers neither. Certificates are verified against the
 * system's CAs plus the instance's configured ones (SMTP_CA_FILE). Every phase is bounded so a silent server
 * cannot hold a request for minutes.
 */
export function createSmtpSender(options: {
  trustedCa?: string | undefined;
  /** Ports spoken with TLS from the first byte; 465 (tests add their own random port). */
  implicitTlsPorts?: number[];
}): SmtpSender {
  const implicitTlsPorts = options.implicitTlsPorts ?? [IMPLICIT_TLS_PORT];
  return async (settings, mail) => {
    const implicitTls = implicitTlsPorts.includes(settings.port);
    const transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: implicitTls,
      requireTLS: !implicitTls,
      auth: { user: settings.username, pass: settings.password },
      tls: {
        minVersion: 'TLSv1.2',
        // Giving a CA replaces Node's default list, so the system's roots are kept beside it.
        ...(options.trustedCa ? { ca: [...tls.rootCertificates, options.trustedCa] } : {}),
      },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      const info = await transport.sendMail({
        from: settings.fromName
          ? { name: settings.fromName, address: settings.fromAddress }
          : settings.fromAddress,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      return { messageId: String(info.messageId ?? '') };
    } catch (error) {
      throw new MailDeliveryError(describeSmtpError(error, settings));
    } finally {
      transport.close();
    }
  };
}

type NodemailerError = { code?: string; response?: string; message?: string; command?: string };

/** The server's own words where there are some, otherwise what went wrong on the way there. */
export function describeSmtpError(error: unknown, settings: Pick<SmtpSettings, 'host' | 'port'>): string {
  const e = (error ?? {}) as NodemailerError;
  const where = `${settings.host}:${settings.port}`;
  const message = e.message ?? String(error);
  if (e.code === 'EAUTH') return `The mail server refused the login: ${e.response ?? message}`;
  if (/ECONNREFUSED/.test(message))
    return `Could not connect to the mail server at ${where}: connection refused.`;
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return `The mail server ${settings.host} could not be found.`;
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(message))
    return `The mail server at ${where} did not answer in time.`;
  if (/STARTTLS/i.test(message))
    return `The mail server at ${where} does not offer a secure connection (STARTTLS), which is required.`;
  if (/certificate|self[- ]signed|SSL|TLS|wrong version number/i.test(message))
    return `A secure connection to ${where} could not be made: ${message}`;
  if (e.response) return `The mail server refused the message: ${e.response}`;
  return message;
}
