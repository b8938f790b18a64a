import type pg from 'pg';

/**
 * What PostgreSQL's backends of the servers were doing while a phase ran: sampled from pg_stat_activity every
 * SAMPLE_MS (the share of active backends running or waiting on each wait event), and the WAL the phase wrote and
 * flushed (pg_stat_wal, with track_wal_io_timing switched on for the run so sync times are counted). Tells a commit
 * waiting on a WAL flush (IO:WALSync, LWLock:WALWrite) from a lock wait (Lock:*) from plain CPU.
 */
const SAMPLE_MS = 100;

export type PostgresFigures = {
  samples: number;
  /** Active backends of the servers on average across the samples. */
  meanActive: number;
  /** Backends inside a transaction waiting for the server's next statement, on average: work held up in Node. */
  meanIdleInTransaction: number;
  /** Wait event ('CPU' when none) → share of all active-backend samples, largest first. */
  waits: [string, number][];
  /**
   * The statements behind those averages, largest first: for active backends the statement running, for backends
   * idle in a transaction the last one run (what the transaction waits to follow) — backends on average.
   */
  statements: { state: string; statement: string; backends: number }[];
  commitsPerSecond: number;
  walMbPerSecond: number;
  /** Full-page images' share of WAL records. */
  fullPageShare: number;
  syncsPerSecond: number;
  /** Mean time of one WAL sync (ms), when PostgreSQL counted it. */
  syncMs: number | null;
};

type WalRow = {
  records: string;
  fpi: string;
  bytes: string;
  syncs: string;
  sync_ms: number;
  commits: string;
};

const readWal = async (owner: pg.Pool) =>
  (
    await owner.query<WalRow>(
      `select w.wal_records as records, w.wal_fpi as fpi, w.wal_bytes as bytes, w.wal_sync as syncs,
              w.wal_sync_time as sync_ms,
              (select sum(xact_commit) from pg_stat_database) as commits
         from pg_stat_wal w`,
    )
  ).rows[0]!;

export async function samplePostgres(owner: pg.Pool): Promise<{ finish: () => Promise<PostgresFigures> }> {
  // Only on the benchmark's own embedded server: a server of the user's (TEST_DATABASE_URL) keeps its settings, and
  // its WAL sync time is then reported only if it counts it already.
  if (!process.env.TEST_DATABASE_URL) {
    await owner.query('alter system set track_wal_io_timing = on').catch(() => undefined);
    await owner.query('select pg_reload_conf()').catch(() => undefined);
  }
  const counts = new Map<string, number>();
  const statements = new Map<string, number>();
  let samples = 0;
  let active = 0;
  let idleInTransaction = 0;
  const started = Date.now();
  const before = await readWal(owner);
  let inFlight = false;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = true;
    void owner
      .query<{ state: string; wait: string; statement: string; n: number }>(
        `select state, coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait,
                regexp_replace(left(query, 100), '\\s+', ' ', 'g') as statement, count(*)::int as n
           from pg_stat_activity
          where datname = current_database() and usename <> current_user
            and state in ('active', 'idle in transaction')
          group by 1, 2, 3`,
      )
      .then(({ rows }) => {
        samples++;
        for (const row of rows) {
          const key = `${row.state}\u0000${row.statement}`;
          statements.set(key, (statements.get(key) ?? 0) + row.n);
          if (row.state !== 'active') {
            idleInTransaction += row.n;
            continue;
          }
          active += row.n;
          counts.set(row.wait, (counts.get(row.wait) ?? 0) + row.n);
        }
      })
      .catch(() => undefined)
      .finally(() => (inFlight = false));
  }, SAMPLE_MS);
  return {
    finish: async () => {
      clearInterval(timer);
      const after = await readWal(owner);
      const seconds = (Date.now() - started) / 1000;
      const delta = (key: Exclude<keyof WalRow, 'sync_ms'>) => Number(after[key]) - Number(before[key]);
      const syncs = delta('syncs');
      const syncTime = after.sync_ms - before.sync_ms;
      return {
        samples,
        meanActive: samples ? active / samples : 0,
        meanIdleInTransaction: samples ? idleInTransaction / samples : 0,
        waits: [...counts.entries()]
          .map(([k, n]): [string, number] => [k, n / Math.max(1, active)])
          .sort((a, b) => b[1] - a[1]),
        statements: [...statements.entries()]
          .map(([key, n]) => {
            const [state = '', statement = ''] = key.split('\u0000');
            return { state, statement, backends: samples ? n / samples : 0 };
          })
          .sort((a, b) => b.backends - a.backends),
        commitsPerSecond: delta('commits') / seconds,
        walMbPerSecond: delta('bytes') / 1e6 / seconds,
        fullPageShare: delta('records') ? delta('fpi') / delta('records') : 0,
        syncsPerSecond: syncs / seconds,
        syncMs: syncs && syncTime > 0 ? syncTime / syncs : null,
      };
    },
  };
}

/** One line: "3.1 active, 0.4 idle in a transaction; active: CPU 52 %, IO:WALSync 20 %, …; 410 commits/s; WAL 2.1 MB/s (31 % full pages), 380 syncs/s of 1.2 ms". */
export const postgresLine = (p: PostgresFigures) =>
  `${p.meanActive.toFixed(1)} active, ${p.meanIdleInTransaction.toFixed(1)} idle in a transaction; active: ${p.waits
    .slice(0, 5)
    .map(([k, share]) => `${k} ${(100 * share).toFixed(0)} %`)
    .join(
      ', ',
    )}; ${p.commitsPerSecond.toFixed(0)} commits/s; WAL ${p.walMbPerSecond.toFixed(1)} MB/s (${(100 * p.fullPageShare).toFixed(0)} % full pages), ${p.syncsPerSecond.toFixed(0)} syncs/s${p.syncMs === null ? '' : ` of ${p.syncMs.toFixed(1)} ms`}`;

/** The statements that kept backends busy or transactions open the most, one a line, for the log. */
export const postgresStatements = (p: PostgresFigures, top = 12) =>
  p.statements
    .slice(0, top)
    .map((s) => `${s.backends.toFixed(2)} ${s.state}: ${s.statement}`)
    .join('\n');
