import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';

/** No request of ours nests deeper than a few levels; this leaves room for any honest client. */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`;

/**
 * How deeply a JSON text nests its arrays and objects, counted without parsing and without recursion, stopping as
 * soon as `limit` is passed. Brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * JSON bodies are refused with 400 when they nest deeper than MAX_JSON_DEPTH, before anything walks them: code that
 * reads a body recursively (a signature over its fields, the sign-in service re-serialising it) would otherwise run
 * out of stack on `[[[[…]]]]` and answer 500. The text is then parsed as Fastify always does (prototype poisoning
 * refused).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
      return done(new AppError('VALIDATION_FAILED', TOO_DEEP_MESSAGE), undefined);
    void parse(request, text, done);
  });
}
