import { sql } from 'kysely';
import type { DbExecutor } from './database.ts';

/**
 * Sends a PostgreSQL notification on a channel, delivered when the caller's transaction commits (at once outside
 * one). Every instance listening on the channel hears it (instance/instance-connection.ts).
 */
export async function notifyChannel(db: DbExecutor, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

/** Something that hands each notification of a channel to a handler (an instance's own connection does). */
export type ChannelListener = {
  listen: (channel: string, handler: (payload: string | undefined) => void) => void;
};
