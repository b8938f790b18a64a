import { ERROR_STATUS, type ErrorCode, type FieldIssue } from '#domain/errors/error-codes.ts';

/** The one error type thrown by server code; mapped to a status and body in plugins/error-handler.ts. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues: FieldIssue[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { issues?: FieldIssue[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.issues = extra.issues;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what);
