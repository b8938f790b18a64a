import { z } from 'zod';

/** Every error the API can answer with. The browser maps codes to the spec's toasts. */
export const ErrorCodeSchema = z.enum([
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'ACCOUNT_PENDING',
  'ACCOUNT_DENIED',
  'ACCOUNT_DEACTIVATED',
  'ADMIN_ONLY',
  'CSRF_REJECTED',
  'NOT_FOUND',
  'CONFLICT',
  'LAST_ADMIN',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_FILE',
  'MAIL_FAILED',
  'DUPLICATE_PREVENTED',
  'CONCURRENT_PREVENTED',
  'DO_NOT_CALL',
  'CONSENT_REFUSED',
  'PROVIDER_ERROR',
  'NOT_CONFIGURED',
  'UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The one code-to-status map: every error the API answers carries one of these codes, always with this status. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  ACCOUNT_PENDING: 403,
  ACCOUNT_DENIED: 403,
  ACCOUNT_DEACTIVATED: 403,
  ADMIN_ONLY: 403,
  CSRF_REJECTED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  LAST_ADMIN: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_FILE: 415,
  /** The user's own mail server refused or could not be reached: a bad gateway, with its reason. */
  MAIL_FAILED: 502,
  /** The server's own duplicate-call answers, returned to the browser as they are. */
  DUPLICATE_PREVENTED: 409,
  CONCURRENT_PREVENTED: 409,
  DO_NOT_CALL: 409,
  /** The consent gate refused to reach the contact now (calling hours, a state's limit, a number that cannot be placed); the message says why. */
  CONSENT_REFUSED: 409,
  /** The telephony provider refused or could not place the call; its words are the message. */
  PROVIDER_ERROR: 502,
  /** A capability needs configuration this instance lacks (e.g. Twilio credentials for a browser-phone token). */
  NOT_CONFIGURED: 503,
  /** The server is overloaded (no database connection came free in time) or shutting down: try again shortly. */
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/** The body of every non-2xx answer. */
export const ApiErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  issues: z.array(FieldIssueSchema).optional(),
  retryAfterSeconds: z.number().int().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
