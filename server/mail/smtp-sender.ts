import tls from 'node:tls';
import nodemailer, { type Transporter } from 'nodemailer';
import { IMPLICIT_TLS_PORT } from '#domain/email/email.schema.ts';
import { isAllowedMailHost, mailHostNotAllowed } from '#domain/email/mail-hosts.ts';

export type SmtpSettings = {
  host: string;
  port: number;
  username: string;
  password: string;
  fromAddress: string;
  fromName: string | null;
};
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  /** Extra headers (a campaign's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
};
/** Many messages over one connection to one server; closed when done. */
export type SmtpSession = { send: (mail: OutgoingMail) => Promise<{ messageId: string }>; close: () => void };
export type SmtpSender = ((settings: SmtpSettings, mail: OutgoingMail) => Promise<{ messageId: string }>) & {
  session: (settings: SmtpSettings) => SmtpSession;
};

/**
 * A mail server said no, or could not be reached; `message` is the reason a person can act on. `serverProblem`:
 * the server itself failed before this message was handed over (unreachable, not allowed, login refused, no secure
 * connection), so the next would fail the same way and this one surely did not arrive.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly serverProblem = false,
  ) {
    super(message);
  }
}

/**
 * Sends through a user's own mail server. TLS is required (decision 000: the spec's "SSL"): implicit TLS
 * on 465, STARTTLS everywhere else, refusing a server that offers neither. Certificates are verified against the
 * system's CAs plus the instance's configured ones (SMTP_CA_FILE). Every phase is bounded so a silent server
 * cannot hold a request for minutes.
 *
 * Users choose the host and port, so this must not become a port scanner of the operator's network: only the
 * operator's allowed hosts are contacted when a list is set (SMTP_ALLOWED_HOSTS), and every failure before a mail
 * server has greeted us (refused, reset, timed out, not found, not speaking SMTP) gives the same words after the
 * same time, the connection timeout, so neither the text nor the delay tells a closed port from an open one.
 */
export function createSmtpSender(options: {
  trustedCa?: string | undefined;
  /** Ports spoken with TLS from the first byte; 465 (tests add their own random port). */
  implicitTlsPorts?: number[];
  /** The operator's list of mail hosts users may use (null: any). */
  allowedHosts?: readonly string[] | null;
  /** How long connecting and the greeting may take, and so how long a failure to reach a server takes to tell. */
  connectionTimeoutMs?: number;
}): SmtpSender {
  const implicitTlsPorts = options.implicitTlsPorts ?? [IMPLICIT_TLS_PORT];
  const allowedHosts = options.allowedHosts ?? null;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS;
  // One TLS context for every connection: building one reads the whole CA list, ~50 ms that held the event loop at
  // each new connection of a campaign (decision 044).
  const secureContext = tls.createSecureContext({
    minVersion: 'TLSv1.2',
    // Giving a CA replaces Node's default list, so the system's roots are kept beside it.
    ...(options.trustedCa ? { ca: [...tls.rootCertificates, options.trustedCa] } : {}),
  });
  const transportFor = (settings: SmtpSettings, pooled: boolean): Transporter<{ messageId?: string }> => {
    const implicitTls = implicitTlsPorts.includes(settings.port);
    return nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: implicitTls,
      requireTLS: !implicitTls,
      auth: { user: settings.username, pass: settings.password },
      tls: { secureContext },
      connectionTimeout: connectionTimeoutMs,
      greetingTimeout: connectionTimeoutMs,
      socketTimeout: 20_000,
      // A session keeps one connection open for many messages (a campaign), instead of one per message.
      ...(pooled && { pool: true, maxConnections: 1, maxMessages: 500 }),
    });
  };
  const sendWith = async (
    transport: Transporter<{ messageId?: string }>,
    settings: SmtpSettings,
    mail: OutgoingMail,
  ) => {
    if (!isAllowedMailHost(settings.host, allowedHosts))
      throw new MailDeliveryError(mailHostNotAllowed(allowedHosts ?? []), true);
    const started = Date.now();
    try {
      const info = await transport.sendMail({
        from: settings.fromName
          ? { name: settings.fromName, address: settings.fromAddress }
          : settings.fromAddress,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.headers && { headers: mail.headers }),
      });
      return { messageId: String(info.messageId ?? '') };
    } catch (error) {
      if (isBeforeGreeting(error)) {
        await new Promise((resolve) => setTimeout(resolve, started + connectionTimeoutMs - Date.now()));
        throw new MailDeliveryError(unreachableText(settings), true);
      }
      throw new MailDeliveryError(describeSmtpError(error, settings), isServerProblem(error));
    }
  };
  const send = async (settings: SmtpSettings, mail: OutgoingMail) => {
    const transport = transportFor(settings, false);
    try {
      return await sendWith(transport, settings, mail);
    } finally {
      transport.close();
    }
  };
  return Object.assign(send, {
    session: (settings: SmtpSettings): SmtpSession => {
      const transport = transportFor(settings, true);
      return { send: (mail) => sendWith(transport, settings, mail), close: () => transport.close() };
    },
  });
}

const CONNECTION_TIMEOUT_MS = 10_000;

type NodemailerError = { code?: string; response?: string; message?: string; command?: string };

/**
 * A failure while connecting, before any mail server greeted us (nodemailer marks those with command CONN). A TLS
 * failure (an untrusted certificate) is told as it is: a person with a private CA needs to know, and it means a
 * server that speaks TLS is there, on the mail port the person chose.
 */
function isBeforeGreeting(error: unknown): boolean {
  const e = (error ?? {}) as NodemailerError;
  if (e.code === 'ETLS' || /certificate|self[- ]signed|unable to verify|CERT_/i.test(e.message ?? ''))
    return false;
  return (
    e.command === 'CONN' ||
    e.code === 'EDNS' ||
    e.code === 'ECONNECTION' ||
    /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN/.test(e.message ?? '')
  );
}

const unreachableText = (settings: Pick<SmtpSettings, 'host' | 'port'>) =>
  `No mail server answered at ${settings.host}:${settings.port}. Check the server name and the port.`;

/**
 * Whether a failure after the greeting is the server's, before any message was handed over: the login was refused,
 * or no secure connection could be made. Anything later (a refusal, a timeout or a dropped connection once the
 * message was under way) is this message's: it may even have arrived.
 */
function isServerProblem(error: unknown): boolean {
  const e = (error ?? {}) as NodemailerError;
  if (e.command === 'DATA') return false;
  if (e.code === 'EAUTH' || e.code === 'ETLS') return true;
  return /STARTTLS|certificate|self[- ]signed|wrong version number/i.test(e.message ?? '');
}

/** After a mail server greeted us: the server's own words where there are some, otherwise what went wrong. */
export function describeSmtpError(error: unknown, settings: Pick<SmtpSettings, 'host' | 'port'>): string {
  const e = (error ?? {}) as NodemailerError;
  const where = `${settings.host}:${settings.port}`;
  const message = e.message ?? String(error);
  if (e.code === 'EAUTH') return `The mail server refused the login: ${e.response ?? message}`;
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(message))
    return `The mail server at ${where} did not answer in time.`;
  if (/STARTTLS/i.test(message))
    return `The mail server at ${where} does not offer a secure connection (STARTTLS), which is required.`;
  if (/certificate|self[- ]signed|SSL|TLS|wrong version number/i.test(message))
    return `A secure connection to ${where} could not be made: ${message}`;
  if (e.response) return `The mail server refused the message: ${e.response}`;
  return message;
}
