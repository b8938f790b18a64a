import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * The statement that makes a transaction act for someone (database.ts's ACT_AS_SQL), and its three parameters.
 * Declared here, the lowest layer, so the driver below can recognise it.
 */
export const ACT_AS_SQL =
  "select set_config('app.user_id', $1, true), set_config('app.actor', $2, true), set_config('app.quiet', $3, true)";

// What the three parameters can be: a user id (a UUID) or nothing, an actor kind, a switch.
const SAFE_ACTOR_PARAMETERS = [
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?$/i,
  /^(user|admin|system)$/,
  /^(on|off)$/,
] as const;

/**
 * PostgreSQL's dialect for Kysely, with one saving (decision 039): a transaction whose first statement is ACT_AS_SQL
 * (every withActor) sends BEGIN and that statement together, in one round trip, instead of waiting for BEGIN's
 * answer first. The parameters are checked against their only possible shapes and written as literals (the simple
 * protocol takes no parameters); anything else goes the usual way. A transaction that ran nothing sends nothing.
 * Kysely's own savepoints (trx.savepoint()) are not offered: nothing uses them (time-budget.ts writes its SAVEPOINT
 * as a statement, which sends a held BEGIN first like any other).
 */
export class ActorPostgresDialect extends PostgresDialect {
  constructor(config: PostgresDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new ActorDriver(super.createDriver());
  }
}

class PendingBeginConnection implements DatabaseConnection {
  /** BEGIN was asked for and not yet sent: it goes with the next statement. */
  pendingBegin = false;

  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.pendingBegin) {
      const together = beginActingAs(query);
      if (together === null) await this.flushBegin();
      else {
        this.pendingBegin = false;
        await this.inner.executeQuery(CompiledQuery.raw(together));
        return { rows: [] };
      }
    }
    return this.inner.executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    await this.flushBegin();
    yield* this.inner.streamQuery<R>(query, chunkSize);
  }

  /** Sends a BEGIN still waiting for its statement, on its own. */
  private async flushBegin(): Promise<void> {
    if (!this.pendingBegin) return;
    this.pendingBegin = false;
    await this.inner.executeQuery(CompiledQuery.raw('begin'));
  }
}

/** BEGIN and the act-as statement as one simple-protocol text, or null when `query` is not that statement. */
function beginActingAs(query: CompiledQuery): string | null {
  if (query.sql !== ACT_AS_SQL || query.parameters.length !== 3) return null;
  const values = query.parameters.map(String);
  if (!values.every((value, i) => SAFE_ACTOR_PARAMETERS[i]!.test(value))) return null;
  const [userId, actor, quiet] = values;
  return `begin; select set_config('app.user_id', '${userId}', true), set_config('app.actor', '${actor}', true), set_config('app.quiet', '${quiet}', true)`;
}

class ActorDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PendingBeginConnection(await this.inner.acquireConnection());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const pending = connection as PendingBeginConnection;
    if (settings.isolationLevel || settings.accessMode)
      return this.inner.beginTransaction(pending.inner, settings);
    pending.pendingBegin = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const pending = connection as PendingBeginConnection;
    if (pending.pendingBegin) pending.pendingBegin = false;
    else await this.inner.commitTransaction(pending.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const pending = connection as PendingBeginConnection;
    if (pending.pendingBegin) pending.pendingBegin = false;
    else await this.inner.rollbackTransaction(pending.inner);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const pending = connection as PendingBeginConnection;
    pending.pendingBegin = false;
    return this.inner.releaseConnection(pending.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
