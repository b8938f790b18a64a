import type { Db } from './db/database.ts';
import type { Auth } from './modules/auth/auth.ts';
import type { SystemMailer } from './mail/system-mail.ts';
import type { ChangeHub } from './realtime/change-hub.ts';

/** What route modules need, built once in app.ts and passed down explicitly. */
export type AppContext = {
  db: Db;
  auth: Auth;
  mailer: SystemMailer;
  changes: ChangeHub;
  clock: () => Date;
  publicUrl: string;
  adminEmail: string | undefined;
};
