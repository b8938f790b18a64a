import { answeredByOf, type AnsweredBy } from '#domain/calls/answered-by.ts';
import { CallStatusSchema, type CallStatus, type TelephonyProviderName } from '#domain/calls/call-status.ts';
import type { SmsDelivery } from '#domain/campaigns/sms-campaign.schema.ts';
import type { Readable } from 'node:stream';

/** A call handed to a provider: our call id travels in the status callback so events find their call. */
export type PlaceCallRequest = {
  callId: string;
  from: string;
  to: string;
  /** The agent's browser phone, which an answered call is bridged to (Twilio). */
  agentIdentity: string;
  /**
   * A line of a parallel round (decision 026): the person who answers waits on silence until the round decides,
   * then is connected to the agent (connectAgent) or hears the identification message (playAndHangUp).
   */
  hold?: boolean;
  /** Record the call (decision 030), the called person first hearing this disclosure (null: none needed). */
  recording?: { disclosure: string | null };
};

/** The browser phone's identity for a user: Twilio client names allow letters, digits and underscores. */
export const agentIdentity = (userId: string) => `agent_${userId.replace(/-/g, '')}`;

/** The user behind a browser phone's caller (`client:agent_…`), or null for anything else. */
export function userOfClient(from: string | undefined): string | null {
  const hex = /^client:agent_([0-9a-f]{32})$/.exec(from ?? '')?.[1];
  return hex
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : null;
}

/** What the browser phone needs from the server: Twilio issues tokens and answers its Voice URL. */
export type BrowserPhoneSupport = {
  voiceToken: (identity: string) => { token: string; identity: string; ttlSeconds: number };
  /** TwiML for a browser-originated call: dial the number, report progress to our status callback; record it if asked. */
  dialTwiml: (call: {
    id: string;
    from: string;
    to: string;
    recording?: { disclosure: string | null } | undefined;
  }) => string;
  /** TwiML the called person hears on answering, before the agent is connected: a recorded call's disclosure. */
  disclosureTwiml: (text: string) => string;
  /** TwiML that ends a browser-originated call we will not place, saying why. */
  refuseTwiml: (reason: string) => string;
};

/** One status event as the provider reports it (Twilio's fields; the simulator sends the same). */
export type StatusEvent = { providerCallId: string; status: CallStatus; durationSeconds: number | null };

/** The provider refused or could not place a call: its own words, which the browser translates. */
export class ProviderError extends Error {}

/**
 * What calling needs from a telephony provider (decision 009). Two implementations: the simulator, the
 * default, and Twilio. Status events come back through one webhook route, verified by the provider's own scheme.
 */
export type TelephonyProvider = {
  name: TelephonyProviderName;
  placeCall: (request: PlaceCallRequest) => Promise<{ providerCallId: string }>;
  hangUp: (providerCallId: string) => Promise<void>;
  /** A held line (PlaceCallRequest.hold) is put through to the agent's browser phone. */
  connectAgent: (providerCallId: string, request: Omit<PlaceCallRequest, 'from' | 'to'>) => Promise<void>;
  /** A held line nobody can take hears a message, then the call ends (an abandoned call's identification). */
  playAndHangUp: (providerCallId: string, message: string) => Promise<void>;
  /**
   * A voicemail drop (decision 031): the answered party (an answering machine, after its tone) hears the recorded
   * message, fetched from `audioUrl`; the agent's leg is let go at once; the call ends when the message has played.
   */
  dropVoicemail: (providerCallId: string, message: { audioUrl: string; seconds: number }) => Promise<void>;
  /** Whether a webhook request really comes from the provider (signature over its URL and body). */
  verifyWebhook: (request: {
    url: string;
    headers: Record<string, string | string[] | undefined>;
    body: Record<string, string>;
  }) => boolean;
  parseStatus: (body: Record<string, string>) => StatusEvent | null;
  /** Null on the simulator, whose browser phone is a stand-in driven by the call's status. */
  browserPhone: BrowserPhoneSupport | null;
  /**
   * Whether calls may go out from a number (a caller ID a user adds): one of the account's own numbers, one the
   * account has verified, or neither. The simulator's numbers are all fictional, so any is 'verified' there.
   */
  callerIdStatus: (e164: string) => Promise<CallerIdStatus>;
  sms: SmsSupport;
  incoming: IncomingCallSupport;
};

/**
 * A call someone made to one of our numbers, as the provider's voice webhook posts it. `simulatedFor`: the user who
 * simulated it on the built-in simulator (signed with it); absent for a real provider's call.
 */
export type IncomingCallEvent = {
  providerCallId: string;
  from: string;
  to: string;
  simulatedFor?: string;
};

/** What the provider's webhook is answered with (TwiML on Twilio). */
export type WebhookReply = { contentType: string; body: string };

/**
 * What inbound calls need from a telephony provider (decision 028). The number's voice webhook posts the call
 * (`parse`); we answer by ringing the user's browser phones for `ringSeconds` (`ringReply`), whose progress and
 * end come back to the incoming-status webhook with our call id (`parseStatus`), itself answered by what the caller
 * hears after the ringing (`afterRingReply`).
 */
export type IncomingCallSupport = {
  parse: (body: Record<string, string>) => IncomingCallEvent | null;
  ringReply: (call: {
    id: string;
    identity: string;
    ringSeconds: number;
    /** Record the call from its answer (decision 030), the caller first hearing this disclosure (null: none). */
    recording?: { disclosure: string | null } | undefined;
  }) => WebhookReply;
  /** The caller hears `message`, then the call ends (nobody has the number, or nobody answered). */
  sayReply: (message: string) => WebhookReply;
  /** Nothing more to say: the call ends (after a call that was answered). */
  endReply: () => WebhookReply;
  /** The ringing leg's status, or the outcome of the ringing once it is over (missed, answered and ended). */
  parseStatus: (body: Record<string, string>) => {
    status: CallStatus;
    durationSeconds: number | null;
    /** The ringing is over (Twilio's Dial action): the call is missed unless it was answered. */
    final: boolean;
  } | null;
  /**
   * Nobody answered (decision 029): the caller hears the greeting (the text spoken, or the recorded one played from
   * its URL), a tone, and may leave a message of up to `maxSeconds`. The provider records it, tells the voicemail
   * webhook when the caller is done (answered with the thanks), and the voicemail-recording webhook when the file is
   * ready to fetch.
   */
  voicemailReply: (voicemail: {
    callId: string;
    greeting: { text: string } | { audioUrl: string };
    maxSeconds: number;
  }) => WebhookReply;
  /** The recording's report (Twilio's recordingStatusCallback fields). */
  parseRecording: (body: Record<string, string>) => RecordingEvent | null;
  /** Fetches a recording the provider reported, from the provider only (never another host a body names). */
  fetchRecording: (url: string) => Promise<FetchedRecording>;
  /**
   * Deletes the provider's own copy of a recording once ours is stored (our retention and deletions then hold for
   * the only copy). Resolves when it is gone, or was already; rejects when the provider could not be asked.
   */
  deleteRecording: (providerRecordingId: string) => Promise<void>;
  /**
   * The simulator only: someone calls `to` from `from`, through the same signed webhook, on behalf of `userId`; if
   * nobody answers, they leave a message of `voicemailSeconds` (none when 0).
   */
  simulate?: (call: { from: string; to: string; userId: string; voicemailSeconds: number }) => Promise<void>;
  /**
   * The simulator only: the user's browser phone picked up (the server already took the call for that device, first
   * come first served); the simulated caller is connected and stays until the user hangs up.
   */
  answer?: (providerCallId: string) => Promise<void>;
  /** The simulator only: the user declined; the ringing ends now (busy) and the caller goes to voicemail. */
  decline?: (providerCallId: string) => Promise<void>;
};

/** A recording's report: completed (ready to fetch), or absent / failed (nothing was said, or it was lost). */
export type RecordingEvent = {
  providerRecordingId: string;
  url: string;
  status: 'completed' | 'absent' | 'failed';
  durationSeconds: number;
};

/** A recording's bytes as the provider serves them, with their type and the file extension they are stored under. */
export type FetchedRecording = { body: Readable; contentType: string; extension: 'mp3' | 'wav' };

export type CallerIdStatus = 'account-number' | 'verified' | 'unknown';

/** A text message handed to a provider: our reference travels in the status callback URL. */
export type SendSmsRequest = { ref: string; from: string; to: string; body: string };
/** A delivery report, in Twilio's fields (the simulator sends the same). */
export type SmsStatusEvent = { providerMessageId: string; status: SmsDelivery; error: string | null };
/**
 * A message someone sent to one of our numbers. `simulatedFor`: the user who simulated it on the built-in
 * simulator (signed with it), whose records alone it reaches; absent for a real provider's message.
 */
export type InboundSms = {
  providerMessageId: string;
  from: string;
  to: string;
  body: string;
  simulatedFor?: string;
};

/**
 * What SMS needs from a telephony provider: send a message, and read the two webhooks (delivery reports,
 * and messages received), both verified like the call status webhook; an inbound message is answered with `reply`.
 */
export type SmsSupport = {
  send: (request: SendSmsRequest) => Promise<{ providerMessageId: string }>;
  parseStatus: (body: Record<string, string>) => SmsStatusEvent | null;
  parseInbound: (body: Record<string, string>) => InboundSms | null;
  /** The webhook's answer to an inbound message: a reply to send back, or none. */
  reply: (text: string | null) => { contentType: string; body: string };
  /**
   * The simulator only: someone replies from `from` to our number `to`, through the same signed inbound webhook a
   * provider would call (DECISIONS.md "Replies on the simulator"), on behalf of `userId`, whose records alone it
   * reaches. Answers with what the webhook replied.
   */
  simulateInbound?: (message: {
    from: string;
    to: string;
    body: string;
    userId: string;
  }) => Promise<string | null>;
};

/** Twilio's MessageStatus values, read as our delivery states (anything else is ignored). */
const TWILIO_SMS_STATUS: Record<string, SmsDelivery> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
};

/** Twilio's SMS status callback fields (MessageSid, MessageStatus, ErrorCode, ErrorMessage), shared by both providers. */
export function parseTwilioStyleSmsStatus(body: Record<string, string>): SmsStatusEvent | null {
  const sid = body.MessageSid ?? body.SmsSid;
  const status = TWILIO_SMS_STATUS[body.MessageStatus ?? body.SmsStatus ?? ''];
  if (typeof sid !== 'string' || !sid || sid.length > 64 || !status) return null;
  const code = /^\d{1,6}$/.test(body.ErrorCode ?? '') ? body.ErrorCode : null;
  const words = (body.ErrorMessage ?? '').slice(0, 500);
  return {
    providerMessageId: sid,
    status,
    error: code || words ? [code && `Error ${code}`, words].filter(Boolean).join(': ') : null,
  };
}

/** Twilio's incoming message fields (MessageSid, From, To, Body), shared by both providers. */
export function parseTwilioStyleInbound(body: Record<string, string>): InboundSms | null {
  const sid = body.MessageSid ?? body.SmsSid;
  if (typeof sid !== 'string' || !sid || sid.length > 64) return null;
  if (typeof body.From !== 'string' || typeof body.To !== 'string' || !body.From || !body.To) return null;
  if (body.From.length > 40 || body.To.length > 40) return null;
  return {
    providerMessageId: sid,
    from: body.From,
    to: body.To,
    body: String(body.Body ?? '').slice(0, 1600),
  };
}

/**
 * An answering-machine detection result: Twilio's AsyncAmdStatusCallback (or <Number amdStatusCallback>) posts
 * CallSid and AnsweredBy (and MachineDetectionDuration) once it can tell; the simulator sends the same fields.
 */
export type AmdEvent = { providerCallId: string; answeredBy: AnsweredBy };

export function parseTwilioStyleAmd(body: Record<string, string>): AmdEvent | null {
  const answeredBy = answeredByOf(body.AnsweredBy);
  if (!answeredBy || typeof body.CallSid !== 'string' || !body.CallSid || body.CallSid.length > 64)
    return null;
  return { providerCallId: body.CallSid, answeredBy };
}

/** The longest duration we take from a provider: a week, far beyond any call; more is a corrupt value. */
const MAX_REPORTED_DURATION_SECONDS = 7 * 24 * 3600;

/**
 * Twilio's status callback fields, shared by both providers. CallDuration is taken only when it is a whole number
 * of seconds within a week; anything else (negative, fractional, exponent, overflowing) is ignored and the
 * duration is worked out from the answer and end times instead, so a corrupt field never blocks the call's end.
 */
export function parseTwilioStyleStatus(body: Record<string, string>): StatusEvent | null {
  const status = body.CallStatus as CallStatus | undefined;
  if (typeof body.CallSid !== 'string' || !body.CallSid || body.CallSid.length > 64) return null;
  // Provider statuses we know (the domain's); anything else is ignored.
  if (!status || !CallStatusSchema.options.includes(status)) return null;
  const duration = /^\d{1,7}$/.test(body.CallDuration ?? '') ? Number(body.CallDuration) : null;
  return {
    providerCallId: body.CallSid,
    status,
    durationSeconds: duration !== null && duration <= MAX_REPORTED_DURATION_SECONDS ? duration : null,
  };
}

/** Twilio's voice webhook fields for a call to one of our numbers (CallSid, From, To), shared by both providers. */
export function parseTwilioStyleIncomingCall(body: Record<string, string>): IncomingCallEvent | null {
  const sid = body.CallSid;
  if (typeof sid !== 'string' || !sid || sid.length > 64) return null;
  if (typeof body.From !== 'string' || typeof body.To !== 'string' || !body.From || !body.To) return null;
  if (body.From.length > 40 || body.To.length > 40) return null;
  return { providerCallId: sid, from: body.From, to: body.To };
}

/**
 * The incoming call's progress, shared by both providers: the ringing leg's CallStatus (Twilio's <Client>
 * statusCallback), or DialCallStatus and DialCallDuration once the ringing is over (the <Dial> action).
 */
export function parseTwilioStyleIncomingStatus(body: Record<string, string>) {
  const dialed = body.DialCallStatus;
  const reported = dialed ?? body.CallStatus;
  // Twilio's Dial action says 'answered' for a call answered and still going when the ringing leg ends.
  const status = (reported === 'answered' ? 'completed' : reported) as CallStatus | undefined;
  if (!status || !CallStatusSchema.options.includes(status)) return null;
  const rawDuration = dialed !== undefined ? body.DialCallDuration : body.CallDuration;
  const duration = /^\d{1,7}$/.test(rawDuration ?? '') ? Number(rawDuration) : null;
  return {
    status,
    durationSeconds: duration !== null && duration <= MAX_REPORTED_DURATION_SECONDS ? duration : null,
    final: dialed !== undefined,
  };
}

/** Twilio's recording status callback fields (RecordingSid, RecordingUrl, RecordingStatus, RecordingDuration). */
export function parseTwilioStyleRecording(body: Record<string, string>): RecordingEvent | null {
  const sid = body.RecordingSid;
  if (typeof sid !== 'string' || !/^[A-Za-z0-9]{1,64}$/.test(sid)) return null;
  const url = body.RecordingUrl ?? '';
  if (url.length > 500) return null;
  const status = body.RecordingStatus;
  if (status !== 'completed' && status !== 'absent' && status !== 'failed') return null;
  const duration = /^\d{1,5}$/.test(body.RecordingDuration ?? '') ? Number(body.RecordingDuration) : 0;
  return { providerRecordingId: sid, url, status, durationSeconds: duration };
}
