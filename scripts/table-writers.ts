import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Each table's one owner: the module (or server folder) whose code alone writes it. Others read it at most, and
 * change it through the owner's public.ts. A new table gets its line here.
 */
export const TABLE_OWNERS: Record<string, string> = {
  auth_users: 'server/modules/auth',
  auth_sessions: 'server/modules/auth',
  auth_accounts: 'server/modules/auth',
  auth_verifications: 'server/modules/auth',
  auth_attempts: 'server/modules/auth',
  known_devices: 'server/modules/auth',
  user_profiles: 'server/modules/profiles',
  server_instances: 'server/instance',
  change_notices: 'server/realtime',
  outbox_messages: 'server/mail',
  contacts: 'server/modules/contacts',
  contact_history: 'server/modules/contacts',
  contact_imports: 'server/modules/contact-import',
  contact_emails: 'server/modules/email',
  email_configurations: 'server/modules/email',
  email_templates: 'server/modules/email',
  email_unsubscribes: 'server/modules/consent',
  power_dialer_queues: 'server/modules/queues',
  queue_members: 'server/modules/queues',
  projects: 'server/modules/projects',
  calls: 'server/modules/calls',
  call_locks: 'server/modules/calls',
  dial_rounds: 'server/modules/calls',
  call_dispositions: 'server/modules/calls',
  do_not_call: 'server/modules/consent',
  bulk_call_jobs: 'server/modules/calls',
  bulk_call_items: 'server/modules/calls',
  caller_ids: 'server/modules/caller-ids',
  email_campaigns: 'server/modules/campaigns',
  email_campaign_recipients: 'server/modules/campaigns',
  email_campaign_counts: 'server/modules/campaigns',
  email_sequence_steps: 'server/modules/campaigns',
  sms_campaigns: 'server/modules/campaigns',
  sms_campaign_recipients: 'server/modules/campaigns',
  sms_campaign_counts: 'server/modules/campaigns',
  sending_limits: 'server/modules/campaigns',
  sms_opt_outs: 'server/modules/consent',
  consent_settings: 'server/modules/consent',
  consent_decisions: 'server/modules/consent',
  express_consents: 'server/modules/consent',
  sms_inbound_messages: 'server/modules/sms',
  notifications: 'server/modules/notifications',
  notification_settings: 'server/modules/notifications',
  recordings: 'server/modules/recordings',
  file_deletions: 'server/modules/recordings',
  voicemail_greetings: 'server/modules/recordings',
  voicemail_drops: 'server/modules/recordings',
  calendar_feeds: 'server/modules/calendar',
  api_keys: 'server/modules/api-keys',
  slack_connections: 'server/modules/slack',
  hubspot_connections: 'server/modules/hubspot',
  hubspot_logged_calls: 'server/modules/hubspot',
  salesforce_connections: 'server/modules/salesforce',
  salesforce_sign_ins: 'server/modules/salesforce',
  salesforce_logged_calls: 'server/modules/salesforce',
  webhook_endpoints: 'server/modules/webhooks',
  webhook_events: 'server/modules/webhooks',
  webhook_deliveries: 'server/modules/webhooks',
  recording_settings: 'server/modules/recordings',
};

/** The module a server file belongs to: server/modules/<name>, else its top folder (server/mail, server/db, …). */
const ownerOf = (file: string) => {
  const parts = file.split('/');
  return parts[1] === 'modules' ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
};

function sourceFiles(dir: string, root: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return file === 'server/test' || file === 'server/db/migrations' ? [] : sourceFiles(file, root);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/**
 * Which modules write each table, read from the server's code: Kysely's insertInto / updateTable / deleteFrom of a
 * table named in the call or in a const TABLES map of its file, and SQL text that inserts into, updates or deletes
 * from it. Migrations (which create everything) and tests are left out.
 */
export function findTableWriters(root: string): Record<string, Set<string>> {
  const writers: Record<string, Set<string>> = {};
  const add = (table: string, file: string) => (writers[table] ??= new Set()).add(ownerOf(file));
  for (const file of sourceFiles('server', root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/\.(?:insertInto|updateTable|deleteFrom)\(\s*'([a-z_]+)/g))
      add(m[1]!, file);
    for (const m of text.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)\s/gi))
      if (m[1]!.includes('_') || ['contacts', 'calls', 'projects', 'notifications'].includes(m[1]!))
        add(m[1]!, file);
    const map = /const TABLES = \{([\s\S]*?)\n\} as const;/.exec(text);
    if (map && /\.(?:insertInto|updateTable|deleteFrom)\(TABLES/.test(text))
      for (const m of map[1]!.matchAll(/'([a-z_]+)'/g)) add(m[1]!, file);
  }
  return writers;
}
