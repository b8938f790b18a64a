import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLead = {
  Id: string;
  FirstName?: string;
  LastName: string;
  Email?: string;
  Phone?: string;
  MobilePhone?: string;
  Company: string;
  Title?: string;
  Website?: string;
  IsConverted: boolean;
};
export type FakeContact = {
  Id: string;
  FirstName?: string;
  LastName: string;
  Email?: string;
  Phone?: string;
  MobilePhone?: string;
  Title?: string;
  Account: { Name: string; Website?: string } | null;
};
type Task = Record<string, unknown> & { Id: string };

/**
 * A local Salesforce org and its login host, answering as Salesforce documents them (decision 037):
 * - OAuth 2.0 web server flow: GET /services/oauth2/authorize shows an "Allow Access?" page for the connected app
 *   (client id and callback URL checked) whose Allow and Deny links send the browser back with a code or with
 *   error=access_denied; POST /services/oauth2/token exchanges the code (client secret, callback and PKCE S256
 *   verifier checked, a code used once) or a refresh token; GET /services/oauth2/userinfo; POST
 *   /services/oauth2/revoke. Refusals in OAuth's `{ error, error_description }` shape.
 * - REST v60.0 with a Bearer access token (else 401 INVALID_SESSION_ID): GET query?q= for the SOQL this product
 *   sends (FROM Lead or Contact, IsConverted = false, Email =, Phone / MobilePhone IN, LIMIT), paged by
 *   nextRecordsUrl in pages of `pageSize`; POST sobjects/Task (WhoId must be a Lead or Contact). Every record is
 *   answered whole rather than only the fields selected.
 * `expireAccessTokens()` makes every access token answer 401 (as after the org's session timeout); `revokeAll()`
 * also refuses the refresh tokens; `failNext` answers the next REST requests with these statuses.
 */
export type FakeSalesforce = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The callback URL registered on the connected app; anything else is refused. */
  callbackUrl: string;
  organizationId: string;
  userId: string;
  username: string;
  pageSize: number;
  leads: FakeLead[];
  contacts: FakeContact[];
  tasks: Task[];
  revoked: string[];
  requests: { method: string; path: string }[];
  failNext: number[];
  addLeads: (rows: Omit<FakeLead, 'Id' | 'IsConverted'>[]) => void;
  addContacts: (rows: Omit<FakeContact, 'Id'>[]) => void;
  expireAccessTokens: () => void;
  revokeAll: () => void;
  close: () => Promise<void>;
};

const token = () => randomBytes(18).toString('base64url');

/** SOQL string literals as Salesforce reads them: 'it\'s' is it's. */
const literal = (quoted: string) => quoted.slice(1, -1).replace(/\\(.)/g, '$1');
const LITERAL = String.raw`'(?:\\.|[^'\\])*'`;

const field = (record: Record<string, unknown>, name: string) => {
  const value = record[name];
  return typeof value === 'string' ? value : '';
};

function matches(record: Record<string, unknown>, where: string): boolean {
  const conditions: ((r: Record<string, unknown>) => boolean)[] = [];
  for (const m of where.matchAll(new RegExp(String.raw`(\w+) = (${LITERAL})`, 'g'))) {
    if (m[1] === 'IsConverted') continue;
    const value = literal(m[2]!).toLowerCase();
    conditions.push((r) => field(r, m[1]!).toLowerCase() === value);
  }
  for (const m of where.matchAll(new RegExp(String.raw`(\w+) IN \(((?:${LITERAL}(?:, )?)+)\)`, 'g'))) {
    const values = [...m[2]!.matchAll(new RegExp(LITERAL, 'g'))].map((v) => literal(v[0]));
    conditions.push((r) => values.includes(field(r, m[1]!)));
  }
  return conditions.length === 0 || conditions.some((c) => c(record));
}

export async function startFakeSalesforce(callbackUrl = ''): Promise<FakeSalesforce> {
  let serial = 1000;
  const id = (prefix: string) => `${prefix}${String(++serial).padStart(15, '0')}`;
  const fake = {
    clientId: '3MVG9fake.consumer.key',
    clientSecret: 'fake-consumer-secret',
    callbackUrl,
    organizationId: '00D5g000004fakeEAA',
    userId: '0055g00000fakeUAAQ',
    username: 'rep@acme.example',
    pageSize: 2000,
    leads: [],
    contacts: [],
    tasks: [],
    revoked: [],
    requests: [],
    failNext: [],
  } as unknown as FakeSalesforce;
  const pending = new Map<string, { redirectUri: string; state: string; challenge: string }>();
  const codes = new Map<string, { redirectUri: string; challenge: string }>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const cursors = new Map<string, Record<string, unknown>[]>();
  fake.addLeads = (rows) => {
    for (const row of rows) fake.leads.push({ ...row, Id: id('00Q'), IsConverted: false });
  };
  fake.addContacts = (rows) => {
    for (const row of rows) fake.contacts.push({ ...row, Id: id('003') });
  };
  fake.expireAccessTokens = () => accessTokens.clear();
  fake.revokeAll = () => {
    accessTokens.clear();
    refreshTokens.clear();
  };

  const json = (response: http.ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const oauthError = (response: http.ServerResponse, status: number, error: string, description: string) =>
    json(response, status, { error, error_description: description });
  const issue = () => {
    const access = `00D!${token()}`;
    accessTokens.add(access);
    return {
      access_token: access,
      signature: token(),
      scope: 'api refresh_token',
      instance_url: fake.url,
      id: `${fake.url}/id/${fake.organizationId}/${fake.userId}`,
      token_type: 'Bearer',
      issued_at: String(Date.now()),
    };
  };
  const page = (records: Record<string, unknown>[], offset: number) => {
    const slice = records.slice(offset, offset + fake.pageSize);
    const done = offset + fake.pageSize >= records.length;
    let next: string | undefined;
    if (!done) {
      const cursor = `01g5g00000${randomBytes(4).toString('hex')}`;
      cursors.set(cursor, records);
      next = `/services/data/v60.0/query/${cursor}-${offset + fake.pageSize}`;
    }
    return {
      totalSize: records.length,
      done,
      records: slice,
      ...(next && { nextRecordsUrl: next }),
    };
  };
  const withAttributes = (type: string, record: { Id: string }) => ({
    attributes: { type, url: `/services/data/v60.0/sobjects/${type}/${record.Id}` },
    ...record,
  });

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (c: Buffer) => (raw += c.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const route = `${request.method} ${url.pathname}`;
      fake.requests.push({ method: request.method ?? '', path: url.pathname });
      const q = url.searchParams;

      if (route === 'GET /services/oauth2/authorize') {
        const redirectUri = q.get('redirect_uri') ?? '';
        if (q.get('client_id') !== fake.clientId || q.get('response_type') !== 'code')
          return response
            .writeHead(400, { 'content-type': 'text/html' })
            .end('<h1>error=invalid_client_id</h1><p>client identifier invalid</p>');
        if (redirectUri !== fake.callbackUrl)
          return response
            .writeHead(400, { 'content-type': 'text/html' })
            .end('<h1>error=redirect_uri_mismatch</h1><p>redirect_uri must match configuration</p>');
        if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
          return response
            .writeHead(400, { 'content-type': 'text/html' })
            .end('<h1>error=invalid_request</h1><p>missing required code challenge</p>');
        const ask = token();
        pending.set(ask, {
          redirectUri,
          state: q.get('state') ?? '',
          challenge: q.get('code_challenge')!,
        });
        return response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><title>Allow Access?</title><link rel="icon" href="data:,"><h1>Allow Access?</h1>` +
              `<p>Signed in as ${fake.username}. CallCRM is asking to: Access and manage your data (${q.get('scope')}).</p>` +
              `<a href="/services/oauth2/decide?ask=${ask}&allow=1">Allow</a> <a href="/services/oauth2/decide?ask=${ask}">Deny</a>`,
          );
      }
      if (route === 'GET /services/oauth2/decide') {
        const ask = pending.get(q.get('ask') ?? '');
        if (!ask) return response.writeHead(400).end('unknown request');
        pending.delete(q.get('ask')!);
        const back = new URL(ask.redirectUri);
        if (q.get('allow')) {
          const code = `aPrx${token()}`;
          codes.set(code, { redirectUri: ask.redirectUri, challenge: ask.challenge });
          back.searchParams.set('code', code);
        } else {
          back.searchParams.set('error', 'access_denied');
          back.searchParams.set('error_description', 'end-user denied authorization');
        }
        back.searchParams.set('state', ask.state);
        return response.writeHead(302, { location: back.toString() }).end();
      }
      if (route === 'POST /services/oauth2/token') {
        const form = new URLSearchParams(raw);
        if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret)
          return oauthError(response, 400, 'invalid_client', 'invalid client credentials');
        if (form.get('grant_type') === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          if (!code) return oauthError(response, 400, 'invalid_grant', 'invalid authorization code');
          if (form.get('redirect_uri') !== code.redirectUri)
            return oauthError(response, 400, 'invalid_grant', 'redirect_uri must match configuration');
          const verified = createHash('sha256')
            .update(form.get('code_verifier') ?? '')
            .digest('base64url');
          if (verified !== code.challenge)
            return oauthError(response, 400, 'invalid_grant', 'invalid code verifier');
          const refresh = `5Aep${token()}`;
          refreshTokens.add(refresh);
          return json(response, 200, { ...issue(), refresh_token: refresh });
        }
        if (form.get('grant_type') === 'refresh_token') {
          if (!refreshTokens.has(form.get('refresh_token') ?? ''))
            return oauthError(response, 400, 'invalid_grant', 'expired access/refresh token');
          return json(response, 200, issue());
        }
        return oauthError(response, 400, 'unsupported_grant_type', 'grant type not supported');
      }
      if (route === 'POST /services/oauth2/revoke') {
        const revoked = new URLSearchParams(raw).get('token') ?? '';
        if (!refreshTokens.delete(revoked) && !accessTokens.delete(revoked))
          return oauthError(response, 400, 'unsupported_token_type', 'this token type is not supported');
        fake.revoked.push(revoked);
        return response.writeHead(200).end();
      }

      const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!accessTokens.has(bearer)) {
        if (url.pathname === '/services/oauth2/userinfo')
          return response.writeHead(403, { 'content-type': 'text/plain' }).end('Bad_OAuth_Token');
        return json(response, 401, [
          { message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' },
        ]);
      }
      if (route === 'GET /services/oauth2/userinfo')
        return json(response, 200, {
          sub: `${fake.url}/id/${fake.organizationId}/${fake.userId}`,
          user_id: fake.userId,
          organization_id: fake.organizationId,
          preferred_username: fake.username,
          name: 'Riley Rep',
          email: fake.username,
        });

      const failure = fake.failNext.shift();
      if (failure === 403)
        return json(response, 403, [
          { message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' },
        ]);
      if (failure)
        return json(response, failure, [{ message: 'Server unavailable', errorCode: 'SERVER_UNAVAILABLE' }]);

      if (route === 'GET /services/data/v60.0/query') {
        const soql = q.get('q') ?? '';
        const object = /FROM (Lead|Contact)\b/.exec(soql)?.[1];
        if (!object)
          return json(response, 400, [
            { message: `unexpected query: ${soql}`, errorCode: 'MALFORMED_QUERY' },
          ]);
        const where = /WHERE (.*?)(?: ORDER BY| LIMIT|$)/.exec(soql)?.[1] ?? '';
        const limit = Number(/LIMIT (\d+)/.exec(soql)?.[1] ?? Infinity);
        const records = (
          object === 'Lead'
            ? fake.leads.filter((l) => !l.IsConverted).map((l) => withAttributes('Lead', l))
            : fake.contacts.map((c) => withAttributes('Contact', c))
        )
          .filter((r) => matches(r, where))
          .slice(0, limit);
        return json(response, 200, page(records, 0));
      }
      const more = /^\/services\/data\/v60\.0\/query\/([\w]+)-(\d+)$/.exec(url.pathname);
      if (request.method === 'GET' && more) {
        const records = cursors.get(more[1]!);
        if (!records)
          return json(response, 400, [
            { message: 'invalid query locator', errorCode: 'INVALID_QUERY_LOCATOR' },
          ]);
        return json(response, 200, page(records, Number(more[2])));
      }
      if (route === 'POST /services/data/v60.0/sobjects/Task') {
        const task = JSON.parse(raw || '{}') as Record<string, unknown>;
        const who = [...fake.leads, ...fake.contacts].some((r) => r.Id === task.WhoId);
        if (!who)
          return json(response, 400, [
            {
              message: `Name ID: id value of incorrect type: ${String(task.WhoId)}`,
              errorCode: 'FIELD_INTEGRITY_EXCEPTION',
              fields: ['WhoId'],
            },
          ]);
        const created = { ...task, Id: id('00T') };
        fake.tasks.push(created);
        return json(response, 201, { id: created.Id, success: true, errors: [] });
      }
      return json(response, 404, [
        { message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' },
      ]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
