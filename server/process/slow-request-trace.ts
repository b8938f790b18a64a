import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import pg from 'pg';
import { aroundConnect } from '../db/around-connect.ts';

/** One step of a request that reached the database: waiting for a pooled connection, or one statement. */
type Step = { kind: 'connection' | 'statement'; ms: number; sql?: string };
type Trace = { steps: Step[]; loop: EventLoopUtilization };

export type SlowRequestReport = {
  method: string;
  route: string;
  statusCode: number;
  totalMs: number;
  /** Waiting for a pooled connection. */
  connectionMs: number;
  /** From sending a statement to handling its answer (PostgreSQL's work, the round trip, the answer's turn). */
  statementMs: number;
  /** The rest: the server's own work and its turns waiting behind other work on the event loop. */
  serverMs: number;
  statements: number;
  /**
   * The share of the request's time this process's event loop was not waiting for I/O (running any request's work,
   * or ready to run but without a CPU): near 1, the statements' answers and the server's own steps waited their turn
   * (decision 048).
   */
  loopBusy: number;
  /** The slowest statements, their first words and time. */
  slowest: string[];
};

const SQL_SHOWN = 70;
/** The request a step belongs to; one for the process, so statements count for the app whose request issued them. */
const storage = new AsyncLocalStorage<Trace>();
const SLOWEST_SHOWN = 3;

/**
 * SLOW_REQUEST_LOG_MS (off by default): every request slower than that is logged with where its time went,
 * waiting for a connection, in statements, or in the server itself, so an operator (or a benchmark) can tell a slow
 * database from a busy server from a small pool. Statements are timed on pg's Client.query, for every pool of the
 * process, and attributed to the request whose work issued them (AsyncLocalStorage).
 */
export function traceSlowRequests(
  app: FastifyInstance,
  pools: pg.Pool[],
  thresholdMs: number,
  report: (slow: SlowRequestReport) => void,
): void {
  for (const pool of pools)
    aroundConnect(pool, (args, connect) => timed('connection', undefined, args, (a) => connect(...a)));
  // Taken to be called on each client as `this` (apply below), as pg's own method.
  const query = Reflect.get(pg.Client.prototype, 'query') as (this: pg.Client, ...args: unknown[]) => unknown;
  // Once per process: statements are timed for whichever traced app's request issued them.
  if (!(query as { traced?: boolean }).traced) {
    const wrapped = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      const sql = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      return timed('statement', sql?.replace(/\s+/g, ' ').slice(0, SQL_SHOWN), args, (a) =>
        query.apply(this, a),
      );
    };
    (wrapped as { traced?: boolean }).traced = true;
    pg.Client.prototype.query = wrapped as typeof pg.Client.prototype.query;
  }
  app.addHook('onRequest', (_request, _reply, done) => {
    storage.run({ steps: [], loop: performance.eventLoopUtilization() }, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const trace = storage.getStore();
    const totalMs = reply.elapsedTime;
    if (trace && totalMs >= thresholdMs)
      report(summarise(request.method, routeOf(request), reply.statusCode, totalMs, trace));
    done();
  });
}

/** Times `work` for the request it runs for: a promise until it settles, or its callback (the last argument). */
function timed(
  kind: Step['kind'],
  sql: string | undefined,
  args: unknown[],
  work: (args: unknown[]) => unknown,
): unknown {
  const trace = storage.getStore();
  if (!trace) return work(args);
  const started = performance.now();
  const done = () =>
    trace.steps.push({
      kind,
      ms: performance.now() - started,
      ...(sql !== undefined && { sql }),
    });
  const callback = args.at(-1);
  if (typeof callback === 'function')
    return work([
      ...args.slice(0, -1),
      (...results: unknown[]) => {
        done();
        return (callback as (...r: unknown[]) => unknown)(...results);
      },
    ]);
  const result = work(args);
  if (result instanceof Promise) result.then(done, done);
  return result;
}

const routeOf = (request: { routeOptions: { url?: string }; url: string }) =>
  request.routeOptions.url ?? request.url.replace(/\?.*$/, '');

function summarise(method: string, route: string, statusCode: number, totalMs: number, trace: Trace) {
  const sum = (kind: Step['kind']) =>
    trace.steps.filter((s) => s.kind === kind).reduce((total, s) => total + s.ms, 0);
  const connectionMs = sum('connection');
  const statementMs = sum('statement');
  const statements = trace.steps.filter((s) => s.kind === 'statement');
  return {
    method,
    route,
    statusCode,
    totalMs: Math.round(totalMs),
    connectionMs: Math.round(connectionMs),
    statementMs: Math.round(statementMs),
    serverMs: Math.max(0, Math.round(totalMs - connectionMs - statementMs)),
    statements: statements.length,
    loopBusy: Math.round(100 * performance.eventLoopUtilization(trace.loop).utilization) / 100,
    slowest: [...statements]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN)
      .map((s) => `${Math.round(s.ms)} ms ${s.sql ?? ''}`),
  };
}
