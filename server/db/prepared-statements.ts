import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Statements prepared once per connection and run by name after (docs/decisions/049-prepared-statements.md).
 * PostgreSQL parses, analyses and plans every unnamed statement each time it comes; a named one is parsed once per
 * connection and, after five runs, may keep a generic plan (plan_cache_mode auto, as for any prepared statement).
 * Measured on this box: a typical lookup costs its backend about a third of the CPU prepared.
 *
 * Which statements: those with parameters (the extended protocol's; BEGIN, COMMIT and the act-as batch go by the
 * simple protocol and stay as they are), of a text short enough, once the process has seen that text before (a text
 * built for one list's length is not worth a slot). Each connection prepares at most PREPARED_PER_CONNECTION, the
 * first it needs, and runs the rest unnamed, as asyncpg caches 100 by default: a backend's memory stays bounded.
 * A prepared statement whose result's shape changed under it (another instance migrated the schema) fails once
 * ("cached plan must not change result type"); that connection prepares it again under a new name for the next run.
 */
export const PREPARED_PER_CONNECTION = 100;
/** Texts longer than this run unnamed (a bulk insert's hundreds of parameters gains little and would hold memory). */
export const LONGEST_PREPARED_TEXT = 4_000;
/** How many texts the process remembers at most to tell a repeated one; past it, only those it remembers are. */
const TEXTS_COUNTED = 10_000;

type QueryFunction = (this: pg.Client, ...args: unknown[]) => unknown;
type Prepared = { names: Map<string, string>; renamed: number };

const seenTexts = new Set<string>();

/** True when `text` has come before in this process (and remembers it this time). */
function seenBefore(text: string): boolean {
  if (seenTexts.has(text)) return true;
  if (seenTexts.size < TEXTS_COUNTED) seenTexts.add(text);
  return false;
}

/** The name `text` runs under on this connection, or undefined to run it unnamed. */
function nameFor(state: Prepared, text: string): string | undefined {
  const known = state.names.get(text);
  if (known) return known;
  if (state.names.size >= PREPARED_PER_CONNECTION || text.length > LONGEST_PREPARED_TEXT) return undefined;
  if (!seenBefore(text)) return undefined;
  const name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}${state.renamed ? `_${state.renamed}` : ''}`;
  state.names.set(text, name);
  return name;
}

/** pg's error when a prepared statement's result would change shape (PostgreSQL's plancache.c). */
const isStaleResultShape = (error: unknown) =>
  (error as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message ?? '');

/** Runs the query by name; when its result's shape went stale, forgets the name so the next run prepares again. */
function runNamed(
  client: pg.Client,
  query: QueryFunction,
  state: Prepared,
  config: { name: string; text: string; values: unknown[] },
  callback?: (error: Error | null, result?: unknown) => void,
): unknown {
  const forget = (error: unknown) => {
    if (!isStaleResultShape(error)) return;
    state.names.delete(config.text);
    state.renamed += 1;
  };
  if (callback)
    return query.call(client, config, (error: Error | null, result?: unknown) => {
      if (error) forget(error);
      callback(error, result);
    });
  const running = query.call(client, config) as Promise<unknown>;
  running.catch(forget);
  return running;
}

/**
 * Makes the pool's connections prepare their repeated statements. Each client's own query is wrapped once, when the
 * pool connects it; it calls pg's Client.prototype.query as it is at that moment of each call (a tracer wrapping it
 * still sees every statement).
 */
export function prepareRepeatedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const state: Prepared = { names: new Map(), renamed: 0 };
    (client as unknown as { query: QueryFunction }).query = function (this: pg.Client, ...args: unknown[]) {
      const query = Reflect.get(pg.Client.prototype, 'query') as QueryFunction;
      const [text, values, callback] = args;
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0) {
        const name = nameFor(state, text);
        if (name && (callback === undefined || typeof callback === 'function'))
          return runNamed(
            client,
            query,
            state,
            { name, text, values },
            callback as ((error: Error | null, result?: unknown) => void) | undefined,
          );
      }
      return query.apply(client, args);
    };
  });
}
