import { HUBSPOT_CONTACT_PROPERTIES, hubspotWords } from '#domain/hubspot/hubspot.ts';

/** A request HubSpot refused or did not answer: its status (null: not reached) and its words. */
export class HubSpotError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 15_000;

export type HubSpotContactPage = {
  results: { id: string; properties: Record<string, string | null> }[];
  paging?: { next?: { after: string } };
};

/**
 * HubSpot's CRM v3 API with a private app's access token (decision 036), at the operator's HUBSPOT_API_URL: the
 * account, contacts (pages, search, create) and calls. Every failure is a HubSpotError in HubSpot's words.
 */
export function hubspotClient(baseUrl: string, token: string) {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new HubSpotError(null, `HubSpot could not be reached: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) throw new HubSpotError(response.status, hubspotWords(response.status, text));
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new HubSpotError(response.status, 'HubSpot answered with something that is not JSON.');
    }
  };
  return {
    /** The account the token reaches (GET /account-info/v3/details). */
    account: () => call<{ portalId: number | string; uiDomain?: string }>('GET', '/account-info/v3/details'),
    /** One page of contacts, 100 at most, after the cursor of the page before. */
    contacts: (after?: string) =>
      call<HubSpotContactPage>(
        'GET',
        `/crm/v3/objects/contacts?limit=100&archived=false&properties=${HUBSPOT_CONTACT_PROPERTIES.join(',')}${
          after ? `&after=${encodeURIComponent(after)}` : ''
        }`,
      ),
    searchContacts: (search: unknown) =>
      call<{ total: number; results: { id: string }[] }>('POST', '/crm/v3/objects/contacts/search', search),
    createContact: (body: unknown) => call<{ id: string }>('POST', '/crm/v3/objects/contacts', body),
    createCall: (body: unknown) => call<{ id: string }>('POST', '/crm/v3/objects/calls', body),
  };
}
export type HubSpotClient = ReturnType<typeof hubspotClient>;
