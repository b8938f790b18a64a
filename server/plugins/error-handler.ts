import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '#domain/errors/error-codes.ts';
import { AppError } from '../errors/app-error.ts';

/** One error handler: validation → 400 with the fields at fault; AppError → its status; anything else → 500, no internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) void reply.header('retry-after', String(error.retryAfterSeconds));
      const body: ApiErrorBody = { code: error.code, message: error.message };
      if (error.issues) body.issues = error.issues;
      if (error.retryAfterSeconds) body.retryAfterSeconds = error.retryAfterSeconds;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: [error.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'Invalid value',
      }));
      const body: ApiErrorBody = { code: 'VALIDATION_FAILED', message: 'Some fields are invalid.', issues };
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ code: 'INTERNAL', message: 'Something went wrong on our side.' } satisfies ApiErrorBody);
    }
    if (isPoolTimeout(error)) {
      request.log.warn('no database connection came free in time');
      void reply.header('retry-after', '5');
      return reply.status(503).send({
        code: 'UNAVAILABLE',
        message: 'The server is busy. Please try again in a moment.',
      } satisfies ApiErrorBody);
    }
    if (isDataException(error)) {
      // Input validation should have caught it (plugins/input-hygiene.ts, the routes' schemas); say so in the log.
      request.log.warn({ err: error }, 'the database refused a value of the request');
      return reply
        .status(400)
        .send({ code: 'VALIDATION_FAILED', message: 'Some values are invalid.' } satisfies ApiErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply
        .status(413)
        .send({ code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' } satisfies ApiErrorBody);
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, unsupported media type and the like: Fastify's own client errors.
      return reply
        .status(status)
        .send({ code: 'VALIDATION_FAILED', message: error.message } satisfies ApiErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: 'INTERNAL', message: 'Something went wrong on our side.' } satisfies ApiErrorBody);
  });
}

/**
 * PostgreSQL refused a value itself (SQLSTATE class 22, "data exception": a number out of range, an invalid byte
 * sequence, a malformed date or uuid). Only data causes these, so the answer is a client error, never a 500.
 */
function isDataException(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** The pool gave no connection within its timeout (db/database.ts): every connection is busy. */
const isPoolTimeout = (error: unknown) =>
  error instanceof Error && error.message === 'timeout exceeded when trying to connect';
