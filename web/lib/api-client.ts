import type { z } from 'zod';
import { ApiErrorBodySchema, type FieldIssue } from '#domain/errors/error-codes.ts';

/** A non-2xx answer from our API, with the server's code and message (domain/errors/error-codes.ts). */
export class ApiError extends Error {
  readonly status: number;
  /** One of our ErrorCode values, better-auth's own codes (INVALID_EMAIL_OR_PASSWORD…), NETWORK or HTTP_<status>. */
  readonly code: string;
  readonly issues: FieldIssue[];

  constructor(status: number, code: string, message: string, issues: FieldIssue[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

/** What to tell the person about a failed request: the first field's problem when the server named one, else the message. */
export function problemOf(error: Error): string {
  return (error instanceof ApiError && error.issues[0]?.message) || error.message;
}

/** How long one attempt may take before it is given up (a 30 s timeout per attempt). */
export const API_TIMEOUT_MS = 30_000;
/** For the few requests that act on a whole filter at once (a million contacts): the server's own statement limit. */
export const LONG_OPERATION_TIMEOUT_MS = 5 * 60_000;

type Options<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** A file sent as the request body as it is (a recorded greeting), instead of JSON. */
  file?: { data: Blob; contentType: string };
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** API_TIMEOUT_MS unless the request is one of the long ones. */
  timeoutMs?: number;
};

const timedOut = (ms: number) =>
  new ApiError(0, 'TIMEOUT', `The server did not answer within ${Math.round(ms / 1000)} seconds. Try again.`);

const isTimeout = (error: unknown) => error instanceof DOMException && error.name === 'TimeoutError';

/**
 * The one API client: same-origin cookies, JSON in and out, typed errors, responses checked against their schema,
 * and each attempt given up after API_TIMEOUT_MS with a TIMEOUT error (retried by the query client like a network
 * failure).
 */
export async function apiFetch<T = unknown>(path: string, options: Options<T> = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const timeoutMs = options.timeoutMs ?? API_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: options.file
      ? { 'content-type': options.file.contentType }
      : options.body !== undefined
        ? { 'content-type': 'application/json' }
        : {},
    body: options.file
      ? options.file.data
      : options.body !== undefined
        ? JSON.stringify(options.body)
        : method === 'GET'
          ? undefined
          : '{}',
    signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
  }).catch((error: unknown) => {
    if (isTimeout(error)) throw timedOut(timeoutMs);
    // A cancelled request (navigation, sign-out) is not a network failure: let the caller see the abort.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  });
  const text = await response.text().catch((error: unknown) => {
    if (isTimeout(error)) throw timedOut(timeoutMs);
    throw error;
  });
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const parsed = ApiErrorBodySchema.safeParse(json);
    if (parsed.success)
      throw new ApiError(response.status, parsed.data.code, parsed.data.message, parsed.data.issues);
    const loose = (json ?? {}) as { code?: unknown; message?: unknown };
    throw new ApiError(
      response.status,
      typeof loose.code === 'string' ? loose.code : `HTTP_${response.status}`,
      typeof loose.message === 'string' ? loose.message : response.statusText || 'Request failed',
    );
  }
  return options.schema ? options.schema.parse(json) : (json as T);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
