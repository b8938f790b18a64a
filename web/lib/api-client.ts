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

type Options<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
};

/** The one API client: same-origin cookies, JSON in and out, typed errors, responses checked against their schema. */
export async function apiFetch<T = unknown>(path: string, options: Options<T> = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: options.body !== undefined ? { 'content-type': 'application/json' } : {},
    body: options.body !== undefined ? JSON.stringify(options.body) : method === 'GET' ? undefined : '{}',
    signal: options.signal ?? null,
  }).catch((error: unknown) => {
    // A cancelled request (navigation, sign-out) is not a network failure: let the caller see the abort.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  });
  const text = await response.text();
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
