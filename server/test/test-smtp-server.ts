import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

export type TestCertificate = { key: string; cert: string };

/** A self-signed certificate for 127.0.0.1 and localhost: trusted by passing `cert` as the instance's CA. */
export async function createTestCertificate(): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/**
 * A real SMTP server on 127.0.0.1 for tests. Plain by default (system mail); with `tls` it offers STARTTLS, or
 * speaks TLS from the first byte with `implicitTls`, as users' mail servers do. `auth` makes it require that
 * login; `reject` makes it refuse every message with the given reply, as a failing mail server would.
 */
export async function startTestSmtpServer(
  options: {
    reject?: string;
    tls?: TestCertificate;
    implicitTls?: boolean;
    auth?: { user: string; pass: string };
  } = {},
) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: options.implicitTls === true,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    disabledCommands: options.tls ? [] : ['STARTTLS'],
    authOptional: !options.auth,
    ...(options.auth && { allowInsecureAuth: false }),
    logger: false,
    onAuth(auth, _session, callback) {
      if (!options.auth || (auth.username === options.auth.user && auth.password === options.auth.pass))
        return callback(null, { user: auth.username });
      return callback(
        Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (options.reject) return callback(Object.assign(new Error(options.reject), { responseCode: 550 }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
