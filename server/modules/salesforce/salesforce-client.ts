import {
  SALESFORCE_API_VERSION,
  salesforceTokenForm,
  salesforceWords,
} from '#domain/salesforce/salesforce.ts';
import type { SalesforceApp } from '../../app-context.ts';

/**
 * A request Salesforce refused or did not answer: its status (null: not reached), its words, and whether the
 * connection itself is refused for good (the refresh token revoked or expired), so nothing reaches Salesforce until
 * the user connects again.
 */
export class SalesforceError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 15_000;

async function send<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new SalesforceError(null, `Salesforce could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new SalesforceError(response.status, salesforceWords(response.status, text));
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new SalesforceError(response.status, 'Salesforce answered with something that is not JSON.');
  }
}

/** What /services/oauth2/token answers: the tokens, the org's instance and the identity URL. */
export type SalesforceTokens = {
  access_token: string;
  refresh_token?: string;
  instance_url: string;
  id: string;
};

/** Who the access token is (the OpenID Connect userinfo endpoint). */
export type SalesforceUserInfo = {
  user_id: string;
  organization_id: string;
  preferred_username: string;
  name?: string;
};

/** The OAuth endpoints of the operator's connected app on the login host (decision 037). */
export function salesforceOAuth(app: SalesforceApp) {
  const form = (path: string, body: URLSearchParams) =>
    send<SalesforceTokens>(`${app.loginUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    });
  return {
    exchangeCode: (code: string, codeVerifier: string, redirectUri: string) =>
      form(
        '/services/oauth2/token',
        salesforceTokenForm({ kind: 'code', code, codeVerifier, redirectUri }, app),
      ),
    refresh: (refreshToken: string) =>
      form('/services/oauth2/token', salesforceTokenForm({ kind: 'refresh', refreshToken }, app)),
    userInfo: (accessToken: string) =>
      send<SalesforceUserInfo>(`${app.loginUrl}/services/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      }),
    /** Revokes the refresh token (and the access tokens issued with it). */
    revoke: (token: string) =>
      send<void>(`${app.loginUrl}/services/oauth2/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      }),
  };
}

export type SalesforceQueryPage = {
  totalSize: number;
  done: boolean;
  records: Record<string, unknown>[];
  nextRecordsUrl?: string;
};

/**
 * The org's REST API with the connection's access token; when Salesforce answers 401 (the access token expired, as
 * it does after the org's session timeout) the refresh token gets a new one, `onRefreshed` keeps it, and the request
 * is sent once more. A refresh refused (revoked or expired refresh token) is a SalesforceError marked refused.
 */
export function salesforceRest(
  app: SalesforceApp,
  session: { accessToken: string; refreshToken: string; instanceUrl: string },
  onRefreshed: (accessToken: string, instanceUrl: string) => Promise<void>,
) {
  let { accessToken, instanceUrl } = session;
  const base = `/services/data/${SALESFORCE_API_VERSION}`;
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown, again = true): Promise<T> => {
    try {
      return await send<T>(`${instanceUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch (error) {
      if (!(error instanceof SalesforceError) || error.status !== 401) throw error;
      if (!again) throw new SalesforceError(401, error.message, true);
      let tokens: SalesforceTokens;
      try {
        tokens = await salesforceOAuth(app).refresh(session.refreshToken);
      } catch (refusal) {
        if (refusal instanceof SalesforceError && refusal.status !== null && refusal.status < 500)
          throw new SalesforceError(refusal.status, refusal.message, true);
        throw refusal;
      }
      accessToken = tokens.access_token;
      instanceUrl = tokens.instance_url.replace(/\/$/, '') || instanceUrl;
      await onRefreshed(accessToken, instanceUrl);
      return call<T>(method, path, body, false);
    }
  };
  return {
    query: (soql: string) => call<SalesforceQueryPage>('GET', `${base}/query?q=${encodeURIComponent(soql)}`),
    /** The next page of a query: Salesforce's nextRecordsUrl, a path on the same instance. */
    queryMore: (nextRecordsUrl: string) => {
      if (!nextRecordsUrl.startsWith('/services/data/'))
        throw new SalesforceError(null, 'Salesforce answered a next page that is not on its instance.');
      return call<SalesforceQueryPage>('GET', nextRecordsUrl);
    },
    createTask: (task: unknown) =>
      call<{ id: string; success: boolean }>('POST', `${base}/sobjects/Task`, task),
  };
}
