import type { AttemptKind } from '#domain/auth/auth-throttle.ts';
import type { Role } from '#domain/auth/roles.ts';
import type { BulkCallSummary } from '#domain/calls/bulk-call.schema.ts';
import type { CampaignStatus, CampaignType, RecipientState } from '#domain/campaigns/campaign-state.ts';
import type { SmsDelivery } from '#domain/campaigns/sms-campaign.schema.ts';
import type { ContactStatus } from '#domain/contacts/contact.schema.ts';
import type { DuplicateMode, ImportReport, ImportSource } from '#domain/contacts/contact-import.ts';
import type { LineState } from '#domain/dialer/dial-round.ts';
import type { SkipReason } from '#domain/dialer/queue-walk.ts';
import type { Delivery } from '#domain/email/email.schema.ts';
import type { NotificationKind } from '#domain/notifications/notification.schema.ts';
import type { ProjectStatus, ProjectType } from '#domain/projects/project.schema.ts';
import type { SmsKeyword } from '#domain/sms/sms-keywords.ts';
import type { TelephonyProviderName } from '#domain/calls/call-status.ts';
import type { AnsweredBy } from '#domain/calls/answered-by.ts';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Tables used by better-auth (names mapped in server/modules/auth/auth.ts). */
export type AuthUsersTable = {
  id: string;
  name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type AuthSessionsTable = {
  id: string;
  token: string;
  user_id: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type AuthAccountsTable = {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type AuthVerificationsTable = {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type UserProfilesTable = {
  id: string;
  email: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  role: Role;
  deactivated_at: NullableTimestamp;
  reviewed_at: NullableTimestamp;
  reviewed_by: string | null;
  created_at: Generated<Date>;
  /** IANA zone chosen in Settings → Profile (migration 0022); null: the browser's. */
  time_zone: string | null;
  /** The country numbers without a country code are read in (migration 0029). */
  phone_country: Generated<string>;
  /** Calls go out from the caller ID nearest the contact (migration 0034, decision 027). */
  local_presence: Generated<boolean>;
};

export type AuthAttemptsTable = {
  id: Generated<string>;
  kind: AttemptKind;
  account: string;
  client: string;
  ip: string;
  known_device: Generated<boolean>;
  outcome: Generated<'pending' | 'failed' | 'succeeded'>;
  attempted_at: Timestamp;
};

export type KnownDevicesTable = {
  account: string;
  device_id: string;
  last_seen_at: Timestamp;
};

/** Realtime change notices, written by the notify triggers (migration 0049), read by each instance's change feed. */
export type ChangeNoticesTable = {
  id: Generated<string>;
  xid: Generated<string>;
  payload: string;
  created_at: Generated<Timestamp>;
};

export type ServerInstancesTable = {
  id: string;
  hostname: string;
  pid: number;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  job_pool_id: string | null;
};

export type OutboxMessagesTable = {
  id: Generated<string>;
  user_id: string | null;
  kind: string;
  from_address: string;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Generated<Date>;
};

export type ContactsTable = {
  id: Generated<string>;
  user_id: string;
  first_name: string;
  last_name: string;
  email: Generated<string>;
  phone: string | null;
  phone_e164: string | null;
  company: string | null;
  website: string | null;
  title: string | null;
  notes: string | null;
  status: Generated<ContactStatus>;
  tags: Generated<string[]>;
  is_cold_lead: Generated<boolean>;
  synced: Generated<boolean>;
  last_synced_at: NullableTimestamp;
  sync_error: Generated<boolean>;
  /** The contact's own IANA zone and US state, which win over their number's (migration 0026). */
  time_zone: string | null;
  state: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  last_call_at: ColumnType<Date | null, never, never>;
  /** last_call_at with a missing date as -infinity: the list's sort key and last-called filter (migration 0005). */
  last_call_sort: ColumnType<Date, never, never>;
  latest_disposition: ColumnType<string | null, never, never>;
  latest_disposition_qualified: ColumnType<boolean | null, never, never>;
  needs_attention: ColumnType<boolean, never, never>;
  is_qualified: ColumnType<boolean, never, never>;
  name_sort: ColumnType<string, never, never>;
  search_text: ColumnType<string, never, never>;
  /** lower(email), stored so an index on it serves lookups under row-level security (migration 0008). */
  email_key: ColumnType<string, never, never>;
};

export type ContactHistoryTable = {
  id: Generated<string>;
  contact_id: string;
  user_id: string;
  changed_fields: string[];
  previous_values: ColumnType<Record<string, unknown>, string, string>;
  new_values: ColumnType<Record<string, unknown>, string, string>;
  changed_at: Generated<Date>;
};

/** Settings → Notifications (migration 0023): no row means every notification is on. */
export type NotificationSettingsTable = {
  user_id: string;
  callbacks_app: Generated<boolean>;
  callbacks_email: Generated<boolean>;
  campaigns_app: Generated<boolean>;
  campaigns_email: Generated<boolean>;
  signups_app: Generated<boolean>;
  signups_email: Generated<boolean>;
  missed_calls_app: Generated<boolean>;
  missed_calls_email: Generated<boolean>;
  integrations_app: Generated<boolean>;
  integrations_email: Generated<boolean>;
  updated_at: Generated<Date>;
};

export type NotificationsTable = {
  id: Generated<string>;
  user_id: string;
  kind: NotificationKind;
  subject_key: string;
  title: string;
  body: string;
  link: string | null;
  created_at: Generated<Date>;
  read_at: NullableTimestamp;
  emailed_at: NullableTimestamp;
};

export type CallDispositionsTable = {
  id: Generated<string>;
  contact_id: string | null;
  user_id: string;
  disposition: string;
  notes: string | null;
  call_duration: number | null;
  is_qualified: Generated<boolean>;
  called_at: Generated<Date>;
  queue_id: string | null;
  callback_date: NullableTimestamp;
  created_at: Generated<Date>;
  call_id: string | null;
  qualification: string | null;
  /** lower(notes), generated, for the Qualified Leads search (migration 0022). */
  notes_search: ColumnType<string | null, never, never>;
};

export type PowerDialerQueuesTable = {
  id: Generated<string>;
  queue_id: string;
  queue_name: string;
  user_id: string;
  last_contact_index: Generated<number>;
  created_at: Generated<Date>;
  last_modified: Generated<Date>;
  /** Kept by triggers on queue_members (migration 0012). */
  total_count: Generated<number>;
  completed_count: Generated<number>;
  project_id: Generated<string | null>;
  /** A selection being added in the background (migration 0016); null when none. */
  fill_selection: unknown;
  fill_asked_at: Date | null;
  fill_after_name: string | null;
  fill_after_id: string | null;
  fill_added: Generated<number>;
  fill_expected: Generated<number>;
  fill_error: string | null;
  /** Power (one line) or parallel (migration 0032). */
  dial_mode: Generated<'power' | 'parallel'>;
  /** The queue's abandonment cap in percent, lower than the law's 3 %; null: the law's. */
  abandon_cap_percent: Generated<string | null>;
};

/** A round of parallel dialing: the lines rung at once for one rep (migration 0032). */
export type DialRoundsTable = {
  id: Generated<string>;
  user_id: string;
  queue_id: string;
  walker: string;
  lines: number;
  why: string;
  connected_call_id: string | null;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
};

export type EmailCampaignsTable = {
  id: Generated<string>;
  user_id: string;
  name: string;
  campaign_type: Generated<CampaignType>;
  subject: Generated<string>;
  body: Generated<string>;
  status: Generated<CampaignStatus>;
  per_minute: Generated<number>;
  project_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
  pause_reason: string | null;
  /** What a sequence is for (migration 0025); null for one-time campaigns. */
  description: string | null;
};

export type EmailCampaignRecipientsTable = {
  campaign_id: string;
  contact_id: string;
  user_id: string;
  position: ColumnType<string, never, never>;
  state: Generated<RecipientState>;
  reason: string | null;
  email: string | null;
  attempted_at: Date | null;
  sent_at: Date | null;
  message_id: string | null;
  delivery: Delivery | null;
  unsubscribe_token: Generated<string>;
  steps_sent: Generated<number>;
  due_at: Date | null;
};

export type SmsCampaignsTable = {
  id: Generated<string>;
  user_id: string;
  name: string;
  message: string;
  status: Generated<CampaignStatus>;
  per_minute: Generated<number>;
  project_id: string | null;
  pause_reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
};

export type SmsCampaignRecipientsTable = {
  campaign_id: string;
  contact_id: string;
  user_id: string;
  position: ColumnType<string, never, never>;
  state: Generated<RecipientState>;
  reason: string | null;
  phone: string | null;
  from_number: string | null;
  attempted_at: Date | null;
  sent_at: Date | null;
  send_ref: Generated<string>;
  provider_message_id: string | null;
  delivery: SmsDelivery | null;
  delivery_error: string | null;
  reply: string | null;
  replied_at: Date | null;
  /** Outside the recipient's calling hours: not sent before then (migration 0026). */
  not_before: Date | null;
};

export type ConsentSettingsTable = {
  user_id: string;
  window_from: number | null;
  window_to: number | null;
  unknown_local_time: Generated<'allow' | 'block'>;
  updated_at: Generated<Date>;
};

export type ConsentDecisionsTable = {
  id: Generated<string>;
  user_id: string;
  contact_id: string | null;
  number: string | null;
  channel: 'call' | 'text' | 'campaign-email' | 'email' | 'prerecorded';
  outcome: 'allowed' | 'refused' | 'waiting' | 'opted-out' | 'opted-in';
  code: string | null;
  reason: string | null;
  facts: unknown;
  decided_at: Date;
};

export type ExpressConsentsTable = {
  id: Generated<string>;
  user_id: string;
  contact_id: string;
  given_on: string;
  source: string;
  recorded_at: Date;
  withdrawn_at: Date | null;
};

export type SendingLimitsTable = {
  user_id: string;
  email_per_minute: number | null;
  sms_per_minute: number | null;
  email_last_at: Date | null;
  sms_last_at: Date | null;
  updated_at: Generated<Date>;
};

/** Numbers that replied STOP: for every user (user_id null, a provider's), or one user's simulated reply. */
export type SmsOptOutsTable = {
  phone: string;
  keyword: string;
  user_id: string | null;
  created_at: Generated<Date>;
};

/** Messages received, by the provider's id: each is applied once (migration 0024). */
export type SmsInboundMessagesTable = {
  provider_message_id: string;
  user_id: string | null;
  phone: string;
  to_number: string;
  keyword: SmsKeyword | null;
  /** The message's text (migration 0043); null for messages received before. */
  body: string | null;
  received_at: Generated<Date>;
};

export type EmailSequenceStepsTable = {
  campaign_id: string;
  user_id: string;
  step: number;
  subject: string;
  body: string;
  delay_days: number;
};

export type EmailCampaignCountsTable = { campaign_id: string; user_id: string; state: string; n: number };

export type EmailUnsubscribesTable = {
  user_id: string;
  email: string;
  campaign_id: string | null;
  created_at: Generated<Date>;
};

export type ProjectsTable = {
  id: Generated<string>;
  user_id: string;
  name: string;
  client: string | null;
  status: Generated<ProjectStatus>;
  /** A date (yyyy-mm-dd); read back as a string (the pg type parser is set for dates in database.ts). */
  deadline: string | null;
  budget: string | null;
  description: string | null;
  project_type: Generated<ProjectType>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
};

export type QueueMembersTable = {
  queue_id: string;
  contact_id: string;
  user_id: string;
  position: Generated<string>;
  completed: Generated<boolean>;
  added_at: Generated<Date>;
  completed_at: NullableTimestamp;
  skip_reason: SkipReason | null;
  /** The walker (a dialer tab) holding this contact, and since when; a claim goes stale (decision 015). */
  claimed_by: string | null;
  claimed_at: NullableTimestamp;
  /** Refused for now by the consent gate (outside their hours): not offered before then, and why (migration 0026). */
  wait_until: NullableTimestamp;
  wait_reason: string | null;
};

export type EmailConfigurationsTable = {
  user_id: string;
  email: string;
  username: string | null;
  from_name: string | null;
  server: string;
  port: number;
  password_encrypted: string;
  use_ssl: Generated<boolean>;
  updated_at: Timestamp;
};

export type EmailTemplatesTable = {
  id: Generated<string>;
  user_id: string;
  name: string;
  subject: string;
  content: string;
  is_default: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type ContactEmailsTable = {
  id: Generated<string>;
  contact_id: string;
  user_id: string;
  template_id: string | null;
  direction: Generated<'outbound' | 'inbound'>;
  delivery: Delivery;
  from_address: string;
  to_address: string;
  subject: string;
  content: string;
  message_id: string | null;
  sent_at: Timestamp;
};

export type ContactImportsTable = {
  id: Generated<string>;
  user_id: string;
  file_name: string;
  format: ImportSource;
  duplicates: DuplicateMode;
  status: Generated<ImportReport['status']>;
  total_rows: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  skipped: Generated<number>;
  skipped_rows: ColumnType<unknown, string | undefined, string>;
  error: string | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
  /** The server instance running the import (null once it is finished by a later recovery, or from before). */
  instance_id: string | null;
  /** The moment the rows were stamped with, and the last row number (migration 0014): finds the contacts it made. */
  rows_at: NullableTimestamp;
  last_row: number | null;
};

export type CallerIdsTable = {
  id: Generated<string>;
  user_id: string;
  number: string;
  number_e164: string;
  label: string | null;
  is_default: Generated<boolean>;
  created_at: Generated<Date>;
};

export type CallsTable = {
  id: Generated<string>;
  user_id: string;
  contact_id: string | null;
  request_id: string;
  provider: TelephonyProviderName;
  provider_call_id: string | null;
  /** The instance whose simulator runs this call (simulated calls live in that process); null for Twilio. */
  instance_id: Generated<string | null>;
  from_number: string;
  to_number: string;
  status: Generated<
    | 'queued'
    | 'initiated'
    | 'ringing'
    | 'in-progress'
    | 'completed'
    | 'busy'
    | 'no-answer'
    | 'failed'
    | 'canceled'
  >;
  error: string | null;
  started_at: Timestamp;
  answered_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  duration_seconds: number | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  /** The queue the call was made from (no foreign key: the id stays in the logs after the queue goes). */
  queue_id: Generated<string | null>;
  /** The notes saved with the call's disposition. */
  notes: Generated<string | null>;
  /** The project of the queue the call was made from. */
  project_id: Generated<string | null>;
  /** The latest disposition saved for the call, kept by a trigger (migration 0022). */
  disposition: string | null;
  /** Who answered, as answering-machine detection reported it (migration 0031); null until it does. */
  answered_by: Generated<AnsweredBy | null>;
  /** The parallel-dialing round the call is a line of, the hold it was placed under and the line's state (0032). */
  round_id: Generated<string | null>;
  line_walker: Generated<string | null>;
  line_no: Generated<number | null>;
  line_state: Generated<LineState | null>;
  /** When a person who answered was abandoned (nobody free to take them); not called again for 72 h. */
  abandoned_at: Generated<Date | null>;
  /** Placed by us, or come in to one of our numbers: from_number is then the caller (migration 0035). */
  direction: Generated<'outbound' | 'inbound'>;
  /** Whether the call is recorded, and what the called person heard first (null: no disclosure needed). */
  recorded: Generated<boolean>;
  recording_disclosure: string | null;
  /** The prerecorded voicemail a rep left on the call (its name then), and when (migration 0037). */
  voicemail_drop_name: string | null;
  voicemail_dropped_at: Date | null;
  /** A missed incoming call the user marked done on their missed-calls list (migration 0038). */
  missed_cleared_at: Date | null;
  /** What the Call Reports filter searches (generated, migration 0022). */
  report_text: ColumnType<string, never, never>;
};

export type CallLocksTable = { user_id: string; request_id: string; taken_at: Timestamp };

export type DoNotCallTable = { user_id: string; number_e164: string; added_at: Generated<Date> };

export type BulkCallJobsTable = {
  id: Generated<string>;
  user_id: string;
  from_number: string;
  /** Each call from the caller ID nearest its contact; from_number is the default (migration 0034). */
  local_presence: Generated<boolean>;
  status: Generated<BulkCallSummary['status']>;
  total: number;
  next_at: Generated<Date>;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
};

export type BulkCallItemsTable = {
  job_id: string;
  position: number;
  user_id: string;
  contact_id: string | null;
  contact_name: string;
  request_id: string;
  state: Generated<'pending' | 'called' | 'skipped' | 'failed'>;
  reason: string | null;
  call_id: string | null;
  done_at: NullableTimestamp;
};

export type RecordingsTable = {
  id: Generated<string>;
  user_id: string;
  kind: 'voicemail' | 'greeting' | 'call' | 'drop';
  call_id: string | null;
  contact_id: string | null;
  storage_key: string;
  content_type: string;
  size_bytes: string | number;
  /** numeric: read as a string. */
  duration_seconds: string | number;
  provider_recording_id: string | null;
  created_at: Generated<Date>;
};

export type FileDeletionsTable = {
  storage_key: string;
  /** When the file may be deleted: at once for a deleted recording, later for one still being stored. */
  queued_at: Generated<Date>;
};

export type RecordingSettingsTable = {
  user_id: string;
  record_calls: Generated<boolean>;
  retention_days: Generated<number>;
  updated_at: Generated<Date>;
};

export type VoicemailGreetingsTable = {
  user_id: string;
  greeting_text: string | null;
  recording_id: string | null;
  updated_at: Generated<Date>;
};

export type VoicemailDropsTable = {
  id: Generated<string>;
  user_id: string;
  recording_id: string;
  name: string;
  created_at: Generated<Date>;
};

export type CalendarFeedsTable = {
  user_id: string;
  /** SHA-256 (hex) of the feed's secret token: how a feed request finds its owner. */
  token_hash: string;
  /** The token, sealed with the app's key, to show the address again to its owner. */
  token_sealed: string;
  created_at: Generated<Date>;
  last_fetched_at: Date | null;
};

export type ApiKeysTable = {
  id: Generated<string>;
  user_id: string;
  name: string;
  scope: 'read' | 'read-write';
  /** SHA-256 (hex) of the key: how a request finds it. */
  token_hash: string;
  /** The key's last four characters. */
  hint: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  /** The rate limit's current window: when it began and how many requests it has counted. */
  window_started_at: Generated<Date>;
  window_count: Generated<number>;
};

export type SlackConnectionsTable = {
  user_id: string;
  /** The incoming webhook's address, sealed with the app's key: whoever has it can post to the channel. */
  webhook_url_sealed: string;
  /** The address without its secret part, to show. */
  destination: string;
  events: string[];
  connected_at: Generated<Date>;
  last_sent_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
};

export type HubspotConnectionsTable = {
  user_id: string;
  /** The private app's access token, sealed with the app's key. */
  token_sealed: string;
  portal_id: string;
  account_domain: string | null;
  log_calls: Generated<boolean>;
  create_missing: Generated<boolean>;
  connected_at: Generated<Date>;
  import_status: 'running' | 'done' | 'failed' | null;
  import_at: Date | null;
  import_summary: string | null;
  calls_logged: Generated<number>;
  last_logged_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
};

export type HubspotLoggedCallsTable = {
  disposition_id: string;
  user_id: string;
  hubspot_call_id: string;
  hubspot_contact_id: string;
  logged_at: Generated<Date>;
};

export type SalesforceConnectionsTable = {
  user_id: string;
  /** The org's own address (instance_url of the token answer): every REST request goes there. */
  instance_url: string;
  /** The OAuth tokens, sealed with the app's key; the access token is replaced each time it is refreshed. */
  access_token_sealed: string;
  refresh_token_sealed: string;
  organization_id: string;
  salesforce_user_id: string;
  username: string;
  display_name: string | null;
  log_calls: Generated<boolean>;
  connected_at: Generated<Date>;
  import_status: 'running' | 'done' | 'failed' | null;
  import_at: Date | null;
  import_summary: string | null;
  calls_logged: Generated<number>;
  last_logged_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
};

/** A Salesforce sign-in under way: the PKCE verifier for the state the browser carries, found by the state's hash. */
export type SalesforceSignInsTable = {
  state_hash: string;
  user_id: string;
  verifier_sealed: string;
  log_calls: boolean;
  expires_at: Date;
};

export type SalesforceLoggedCallsTable = {
  disposition_id: string;
  user_id: string;
  task_id: string;
  who_id: string;
  logged_at: Generated<Date>;
};

export type WebhookEndpointsTable = {
  id: Generated<string>;
  user_id: string;
  url: string;
  description: Generated<string>;
  events: string[];
  /** The signing secret (whsec_…), sealed with the app's key, shown again to its owner. */
  secret_sealed: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  /** Since when every delivery failed (no success since); null when the last one went through. */
  failing_since: Date | null;
  created_at: Generated<Date>;
};

export type WebhookDeliveriesTable = {
  /** The webhook-id, the same on every attempt and redelivery. */
  id: string;
  endpoint_id: string;
  user_id: string;
  sequence: Generated<string>;
  /** The contact the event is about: its deliveries go in order. */
  order_key: string | null;
  type: string;
  event_at: Date;
  /** Its event (webhook_events), the payload its endpoints are sent. */
  event_id: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  due_at: Date;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
};

/** An event's payload, stored once for all its endpoints' deliveries (migration 0056). */
export type WebhookEventsTable = {
  id: Generated<string>;
  user_id: string;
  event_at: Date;
  payload: unknown;
};

export type Database = {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  slack_connections: SlackConnectionsTable;
  hubspot_connections: HubspotConnectionsTable;
  hubspot_logged_calls: HubspotLoggedCallsTable;
  salesforce_connections: SalesforceConnectionsTable;
  salesforce_sign_ins: SalesforceSignInsTable;
  salesforce_logged_calls: SalesforceLoggedCallsTable;
  api_keys: ApiKeysTable;
  recordings: RecordingsTable;
  voicemail_drops: VoicemailDropsTable;
  calendar_feeds: CalendarFeedsTable;
  file_deletions: FileDeletionsTable;
  voicemail_greetings: VoicemailGreetingsTable;
  recording_settings: RecordingSettingsTable;
  contacts: ContactsTable;
  contact_history: ContactHistoryTable;
  call_dispositions: CallDispositionsTable;
  notification_settings: NotificationSettingsTable;
  notifications: NotificationsTable;
  power_dialer_queues: PowerDialerQueuesTable;
  queue_members: QueueMembersTable;
  projects: ProjectsTable;
  auth_users: AuthUsersTable;
  auth_sessions: AuthSessionsTable;
  auth_accounts: AuthAccountsTable;
  auth_verifications: AuthVerificationsTable;
  user_profiles: UserProfilesTable;
  consent_settings: ConsentSettingsTable;
  consent_decisions: ConsentDecisionsTable;
  express_consents: ExpressConsentsTable;
  auth_attempts: AuthAttemptsTable;
  known_devices: KnownDevicesTable;
  server_instances: ServerInstancesTable;
  change_notices: ChangeNoticesTable;
  email_campaigns: EmailCampaignsTable;
  email_campaign_recipients: EmailCampaignRecipientsTable;
  email_campaign_counts: EmailCampaignCountsTable;
  email_sequence_steps: EmailSequenceStepsTable;
  sms_campaigns: SmsCampaignsTable;
  sms_campaign_recipients: SmsCampaignRecipientsTable;
  sms_campaign_counts: EmailCampaignCountsTable;
  sms_opt_outs: SmsOptOutsTable;
  sms_inbound_messages: SmsInboundMessagesTable;
  sending_limits: SendingLimitsTable;
  email_unsubscribes: EmailUnsubscribesTable;
  outbox_messages: OutboxMessagesTable;
  email_configurations: EmailConfigurationsTable;
  email_templates: EmailTemplatesTable;
  contact_emails: ContactEmailsTable;
  contact_imports: ContactImportsTable;
  caller_ids: CallerIdsTable;
  calls: CallsTable;
  dial_rounds: DialRoundsTable;
  call_locks: CallLocksTable;
  do_not_call: DoNotCallTable;
  bulk_call_jobs: BulkCallJobsTable;
  bulk_call_items: BulkCallItemsTable;
};
