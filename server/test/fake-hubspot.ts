import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Contact = { id: string; properties: Record<string, string | null> };
type Call = { id: string; properties: Record<string, string>; associations: unknown };

/**
 * A local HubSpot that answers as its CRM v3 API documents (decision 036): GET /account-info/v3/details, contacts
 * listed in pages of `limit` with `paging.next.after`, searched with ORed filter groups of EQ filters, created;
 * calls created with their associations. Every request needs `Authorization: Bearer <token>` with the fake's token,
 * else 401 in HubSpot's error shape. `failNext` queues status codes to answer the next requests with (a 429 with
 * HubSpot's rate-limit body, say).
 */
export type FakeHubspot = {
  url: string;
  token: string;
  portalId: number;
  contacts: Contact[];
  calls: Call[];
  requests: { method: string; path: string }[];
  failNext: number[];
  addContacts: (rows: Record<string, string>[]) => void;
  close: () => Promise<void>;
};

export async function startFakeHubspot(token = 'pat-na1-fake-token'): Promise<FakeHubspot> {
  let serial = 1000;
  const fake = {
    token,
    portalId: 24_680_135,
    contacts: [],
    calls: [],
    requests: [],
    failNext: [],
  } as unknown as FakeHubspot;
  fake.addContacts = (rows) => {
    for (const properties of rows) fake.contacts.push({ id: String(++serial), properties });
  };
  const answer = (response: http.ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (c: Buffer) => (raw += c.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      fake.requests.push({ method: request.method ?? '', path: url.pathname });
      if (request.headers.authorization !== `Bearer ${fake.token}`)
        return answer(response, 401, {
          status: 'error',
          message: 'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
          category: 'INVALID_AUTHENTICATION',
        });
      const failure = fake.failNext.shift();
      if (failure === 429)
        return answer(response, 429, {
          status: 'error',
          message: 'You have reached your ten_secondly_rolling limit.',
          errorType: 'RATE_LIMIT',
          policyName: 'TEN_SECONDLY_ROLLING',
        });
      if (failure)
        return answer(response, failure, {
          status: 'error',
          message: 'Internal error',
          category: 'INTERNAL',
        });
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const route = `${request.method} ${url.pathname}`;
      if (route === 'GET /account-info/v3/details')
        return answer(response, 200, {
          portalId: fake.portalId,
          accountType: 'STANDARD',
          timeZone: 'US/Eastern',
          companyCurrency: 'USD',
          uiDomain: 'app.hubspot.com',
          dataHostingLocation: 'na1',
        });
      if (route === 'GET /crm/v3/objects/contacts') {
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 100);
        const start = Number(url.searchParams.get('after') ?? 0);
        const wanted = (url.searchParams.get('properties') ?? '').split(',').filter(Boolean);
        const page = fake.contacts.slice(start, start + limit).map((c) => ({
          id: c.id,
          properties: Object.fromEntries(wanted.map((p) => [p, c.properties[p] ?? null])),
          createdAt: '2026-01-05T10:00:00.000Z',
          updatedAt: '2026-01-05T10:00:00.000Z',
          archived: false,
        }));
        const next = start + limit < fake.contacts.length ? String(start + limit) : null;
        return answer(response, 200, {
          results: page,
          ...(next && { paging: { next: { after: next, link: `?after=${next}` } } }),
        });
      }
      if (route === 'POST /crm/v3/objects/contacts/search') {
        const groups = (body.filterGroups ?? []) as {
          filters: { propertyName: string; operator: string; value: string }[];
        }[];
        const matches = fake.contacts.filter((c) =>
          groups.some((g) =>
            g.filters.every(
              (f) =>
                f.operator === 'EQ' &&
                (c.properties[f.propertyName] ?? '').toLowerCase() === f.value.toLowerCase(),
            ),
          ),
        );
        return answer(response, 200, {
          total: matches.length,
          results: matches
            .slice(0, Number(body.limit ?? 10))
            .map((c) => ({ id: c.id, properties: c.properties })),
        });
      }
      if (route === 'POST /crm/v3/objects/contacts') {
        const properties = (body.properties ?? {}) as Record<string, string>;
        const id = String(++serial);
        fake.contacts.push({ id, properties });
        return answer(response, 201, { id, properties, archived: false });
      }
      if (route === 'POST /crm/v3/objects/calls') {
        const properties = (body.properties ?? {}) as Record<string, string>;
        if (!properties.hs_timestamp)
          return answer(response, 400, {
            status: 'error',
            message: 'Property values were not valid: hs_timestamp is required',
            category: 'VALIDATION_ERROR',
          });
        const id = String(++serial);
        fake.calls.push({ id, properties, associations: body.associations });
        return answer(response, 201, { id, properties, archived: false });
      }
      return answer(response, 404, {
        status: 'error',
        message: `Unknown route ${route}`,
        category: 'OBJECT_NOT_FOUND',
      });
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
