import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { FORBIDDEN_CONTROL_MESSAGE, isStorableText } from '#domain/text/control-characters.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * The path of the first string (value or key) in `value` that holds a forbidden control character, or null. Walked
 * without recursion: a body may nest arrays as deep as its size allows.
 */
export function findControlCharacter(value: unknown, root: string): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${path}.${i}`]));
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      if (current instanceof Readable) continue;
      for (const [key, item] of Object.entries(current)) {
        if (!isStorableText(key)) return path;
        stack.push([item, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/**
 * Bad bytes are refused at the boundary, for every route (ours and the sign-in service's alike), before any
 * handler or query sees them: a parameter, query value or body field holding a control character answers 400
 * with the field named (rule: domain/text/control-characters.ts). Uploaded files are streams and are checked by
 * their readers instead.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const at =
      findControlCharacter(request.params, 'params') ??
      findControlCharacter(request.query, 'querystring') ??
      findControlCharacter(request.body, 'body');
    if (at)
      throw new AppError('VALIDATION_FAILED', FORBIDDEN_CONTROL_MESSAGE, {
        issues: [{ path: at, message: FORBIDDEN_CONTROL_MESSAGE }],
      });
  });
}
