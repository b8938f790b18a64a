import { Readable } from 'node:stream';
import twilio from 'twilio';
import {
  parseTwilioStyleIncomingCall,
  parseTwilioStyleIncomingStatus,
  parseTwilioStyleInbound,
  parseTwilioStyleRecording,
  parseTwilioStyleSmsStatus,
  parseTwilioStyleStatus,
  ProviderError,
  type TelephonyProvider,
} from './telephony-provider.ts';

/** What a Twilio account needs to be set (README "Calling with Twilio"). */
export type TwilioSettings = {
  accountSid: string;
  authToken: string;
  /** An API key for browser-phone tokens (Console → API keys). */
  apiKeySid: string;
  apiKeySecret: string;
  /** The TwiML App whose Voice URL is PUBLIC_URL/api/telephony/twilio/voice (browser-originated calls). */
  twimlAppSid: string;
  /** The URL Twilio reaches this server at: webhooks are signed over it, so it must match what Twilio calls. */
  publicUrl: string;
  /** Where the REST API is; Twilio's own unless a test points it at a local fake. */
  apiBaseUrl?: string;
  /** Browser-phone token lifetime. */
  tokenTtlSeconds?: number;
};

const STATUS_EVENTS = ['initiated', 'ringing', 'answered', 'completed'];
const TWILIO_API = 'https://api.twilio.com';

/** The called person is put through to the agent's browser phone, carrying our call id (after the disclosure). */
function agentTwiml(callId: string, identity: string, disclosure: string | null = null): string {
  const response = new twilio.twiml.VoiceResponse();
  if (disclosure) response.say(disclosure);
  const dial = response.dial({ answerOnBridge: true });
  const clientLeg = dial.client();
  clientLeg.identity(identity);
  clientLeg.parameter({ name: 'callId', value: callId });
  return response.toString();
}

/** A parallel round's line waits here (under the 2 s the law allows) until the round connects or releases it. */
function holdTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.pause({ length: 60 });
  return response.toString();
}

/** The status callback for one of our calls: our call id travels in the (signed) URL. */
export const twilioStatusUrl = (publicUrl: string, callId: string) =>
  `${publicUrl}/api/telephony/twilio/status?callId=${encodeURIComponent(callId)}`;

/** Where an incoming call's ringing reports back: our call id travels in the (signed) URL. */
export const twilioIncomingStatusUrl = (publicUrl: string, callId: string) =>
  `${publicUrl}/api/telephony/twilio/incoming-status?callId=${encodeURIComponent(callId)}`;

/** Where a voicemail's end (the Record action) and its recording's report go: our call id in the (signed) URL. */
export const twilioVoicemailUrl = (
  publicUrl: string,
  callId: string,
  hook: 'voicemail' | 'voicemail-recording',
) => `${publicUrl}/api/telephony/twilio/${hook}?callId=${encodeURIComponent(callId)}`;

/** Where a recorded call's recording is reported, and the TwiML of its disclosure: our call id in the URL. */
export const twilioCallRecordingUrl = (publicUrl: string, callId: string) =>
  `${publicUrl}/api/telephony/twilio/call-recording?callId=${encodeURIComponent(callId)}`;
export const twilioDisclosureUrl = (publicUrl: string, callId: string) =>
  `${publicUrl}/api/telephony/twilio/disclosure?callId=${encodeURIComponent(callId)}`;

/** The delivery report callback for one of our text messages: our reference travels in the (signed) URL. */
export const twilioSmsStatusUrl = (publicUrl: string, ref: string) =>
  `${publicUrl}/api/telephony/twilio/sms-status?ref=${encodeURIComponent(ref)}`;

/** Sends the SDK's requests to a local fake of Twilio's REST API instead of Twilio's (tests only). */
function redirectingClient(base: string, timeoutMs: number) {
  const client = new twilio.RequestClient({ timeout: timeoutMs });
  const request = client.request.bind(client);
  client.request = (opts) => request({ ...opts, uri: opts.uri.replace(TWILIO_API, base) });
  return client;
}

/**
 * Twilio through its official SDK (decision 010):
 * - calls placed by the server (bulk calls) ring the number and, once answered, bridge to the agent's browser
 *   phone (`<Dial><Client>`); calls from the browser dialer go Device.connect → our Voice URL → `dialTwiml`;
 * - hang-up completes the call; webhooks verify with X-Twilio-Signature over the public URL and the form fields,
 *   so they work behind a proxy as long as PUBLIC_URL is what Twilio calls.
 */
export function createTwilioProvider(settings: TwilioSettings): TelephonyProvider {
  const publicUrl = settings.publicUrl.replace(/\/$/, '');
  const client = twilio(settings.accountSid, settings.authToken, {
    ...(settings.apiBaseUrl ? { httpClient: redirectingClient(settings.apiBaseUrl, 15_000) } : {}),
  });
  const providerError = (error: unknown) => {
    const rest = error as { status?: number; message?: string; code?: number };
    // A RestException carries Twilio's own words (e.g. "The number … is unverified. Trial accounts …").
    if (typeof rest?.status === 'number' && rest.message) return new ProviderError(rest.message);
    return new Error(`Twilio could not be reached: ${rest?.message ?? String(error)}`);
  };

  return {
    name: 'twilio',
    /**
     * Messaging API: a message goes out from the user's number with a status callback; the number's "A message
     * comes in" webhook is PUBLIC_URL/api/telephony/twilio/sms-inbound (README "Calling with Twilio"), answered in TwiML.
     */
    sms: {
      async send({ ref, from, to, body }) {
        try {
          const message = await client.messages.create({
            to,
            from,
            body,
            statusCallback: twilioSmsStatusUrl(publicUrl, ref),
          });
          return { providerMessageId: message.sid };
        } catch (error) {
          throw providerError(error);
        }
      },
      parseStatus: parseTwilioStyleSmsStatus,
      parseInbound: parseTwilioStyleInbound,
      reply(text) {
        const response = new twilio.twiml.MessagingResponse();
        if (text) response.message(text);
        return { contentType: 'text/xml', body: response.toString() };
      },
    },
    /**
     * A call to one of the account's numbers: the number's "A call comes in" webhook is
     * PUBLIC_URL/api/telephony/twilio/incoming (README "Calling with Twilio"). It rings the user's browser phones
     * (every device registered with their identity; the first to accept takes it) with answerOnBridge, so the
     * caller hears ringing until then; the ringing leg and the Dial's end report to incoming-status.
     */
    incoming: {
      parse: parseTwilioStyleIncomingCall,
      ringReply({ id, identity, ringSeconds, recording }) {
        const response = new twilio.twiml.VoiceResponse();
        const statusUrl = twilioIncomingStatusUrl(publicUrl, id);
        // A recorded call (decision 030): the caller hears the disclosure first; both sides recorded from the answer.
        if (recording?.disclosure) response.say(recording.disclosure);
        const dial = response.dial({
          timeout: ringSeconds,
          answerOnBridge: true,
          action: statusUrl,
          method: 'POST',
          ...(recording && {
            record: 'record-from-answer-dual' as const,
            recordingStatusCallback: twilioCallRecordingUrl(publicUrl, id),
            recordingStatusCallbackMethod: 'POST' as const,
            recordingStatusCallbackEvent: ['completed'],
          }),
        });
        const clientLeg = dial.client({
          statusCallback: statusUrl,
          statusCallbackEvent: ['answered', 'completed'],
          statusCallbackMethod: 'POST',
        });
        clientLeg.identity(identity);
        clientLeg.parameter({ name: 'callId', value: id });
        clientLeg.parameter({ name: 'direction', value: 'inbound' });
        return { contentType: 'text/xml', body: response.toString() };
      },
      sayReply(message) {
        const response = new twilio.twiml.VoiceResponse();
        response.say(message);
        response.hangup();
        return { contentType: 'text/xml', body: response.toString() };
      },
      endReply() {
        const response = new twilio.twiml.VoiceResponse();
        response.hangup();
        return { contentType: 'text/xml', body: response.toString() };
      },
      parseStatus: parseTwilioStyleIncomingStatus,
      voicemailReply({ callId, greeting, maxSeconds }) {
        const response = new twilio.twiml.VoiceResponse();
        if ('audioUrl' in greeting) response.play(greeting.audioUrl);
        else response.say(greeting.text);
        response.record({
          maxLength: maxSeconds,
          playBeep: true,
          timeout: 5,
          action: twilioVoicemailUrl(publicUrl, callId, 'voicemail'),
          method: 'POST',
          recordingStatusCallback: twilioVoicemailUrl(publicUrl, callId, 'voicemail-recording'),
          recordingStatusCallbackMethod: 'POST',
          recordingStatusCallbackEvent: ['completed', 'absent'],
        });
        return { contentType: 'text/xml', body: response.toString() };
      },
      parseRecording: parseTwilioStyleRecording,
      /** DELETE Recordings/{Sid}: Twilio keeps no copy once ours is stored; a recording already gone (404) is done. */
      async deleteRecording(providerRecordingId) {
        if (!/^RE[0-9a-f]{32}$/.test(providerRecordingId)) return;
        try {
          await client.recordings(providerRecordingId).remove();
        } catch (error) {
          if ((error as { status?: number }).status === 404) return;
          throw providerError(error);
        }
      },
      /**
       * The recording as MP3 from Twilio's REST API (RecordingUrl + '.mp3', HTTP basic auth with the account), and
       * only from it: a URL on any other host is refused, so a webhook body can never make us fetch elsewhere.
       */
      async fetchRecording(url) {
        const api = settings.apiBaseUrl ?? TWILIO_API;
        if (!url.startsWith(`${api}/`)) throw new Error(`Not a Twilio recording URL: ${url.slice(0, 100)}`);
        const response = await fetch(`${url}.mp3`, {
          headers: {
            authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
          },
          signal: AbortSignal.timeout(60_000),
        });
        if (!response.ok || !response.body)
          throw new Error(`Twilio answered ${response.status} for the recording`);
        return {
          body: Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
          contentType: 'audio/mpeg',
          extension: 'mp3',
        };
      },
    },
    async placeCall({ callId, from, to, agentIdentity: identity, hold, recording }) {
      try {
        const call = await client.calls.create({
          to,
          from,
          // A parallel round's line waits on silence for the round to decide (connectAgent or playAndHangUp).
          twiml: hold ? holdTwiml() : agentTwiml(callId, identity, recording?.disclosure ?? null),
          // A recorded call (decision 030), reported to our call-recording webhook when it is ready. A held line
          // of a parallel round is recorded only once put through to the agent (connectAgent).
          ...(recording &&
            !hold && {
              record: true,
              recordingStatusCallback: twilioCallRecordingUrl(publicUrl, callId),
              recordingStatusCallbackMethod: 'POST',
              recordingStatusCallbackEvent: ['completed'],
            }),
          statusCallback: twilioStatusUrl(publicUrl, callId),
          statusCallbackEvent: STATUS_EVENTS,
          statusCallbackMethod: 'POST',
          // Answering-machine detection in the background: the call connects at once, and who answered is
          // posted to the status URL when Twilio can tell (AnsweredBy): a person at once, a machine at the end of
          // its greeting (DetectMessageEnd), when a dropped voicemail is heard whole after the tone.
          machineDetection: 'DetectMessageEnd',
          asyncAmd: 'true',
          asyncAmdStatusCallback: twilioStatusUrl(publicUrl, callId),
          asyncAmdStatusCallbackMethod: 'POST',
        });
        return { providerCallId: call.sid };
      } catch (error) {
        throw providerError(error);
      }
    },
    async connectAgent(providerCallId, { callId, agentIdentity: identity, recording }) {
      try {
        await client.calls(providerCallId).update({ twiml: agentTwiml(callId, identity) });
        // Recorded from now (decision 030): both sides, reported to our call-recording webhook when ready.
        if (recording)
          await client.calls(providerCallId).recordings.create({
            recordingChannels: 'dual',
            recordingStatusCallback: twilioCallRecordingUrl(publicUrl, callId),
            recordingStatusCallbackMethod: 'POST',
            recordingStatusCallbackEvent: ['completed'],
          });
      } catch (error) {
        throw providerError(error);
      }
    },
    async playAndHangUp(providerCallId, message) {
      const response = new twilio.twiml.VoiceResponse();
      response.say(message);
      response.hangup();
      try {
        await client.calls(providerCallId).update({ twiml: response.toString() });
      } catch (error) {
        throw providerError(error);
      }
    },
    /**
     * The called leg is taken out of the bridge to the agent (which ends the agent's leg) and plays the message,
     * then hangs up. On a browser-originated call our call's id is the <Number> leg's, the called one, too.
     */
    async dropVoicemail(providerCallId, { audioUrl }) {
      const response = new twilio.twiml.VoiceResponse();
      response.play(audioUrl);
      response.hangup();
      try {
        await client.calls(providerCallId).update({ twiml: response.toString() });
      } catch (error) {
        throw providerError(error);
      }
    },
    async hangUp(providerCallId) {
      try {
        await client.calls(providerCallId).update({ status: 'completed' });
      } catch (error) {
        throw providerError(error);
      }
    },
    verifyWebhook({ url, headers, body }) {
      const signature = headers['x-twilio-signature'];
      if (typeof signature !== 'string' || !signature) return false;
      return twilio.validateRequest(settings.authToken, signature, url, body);
    },
    parseStatus: parseTwilioStyleStatus,
    /** Asked of Twilio: the account's own numbers, then the caller IDs it has verified. */
    async callerIdStatus(e164) {
      try {
        const [owned, verified] = await Promise.all([
          client.incomingPhoneNumbers.list({ phoneNumber: e164, limit: 1 }),
          client.outgoingCallerIds.list({ phoneNumber: e164, limit: 1 }),
        ]);
        return owned.length > 0 ? 'account-number' : verified.length > 0 ? 'verified' : 'unknown';
      } catch (error) {
        const problem = providerError(error);
        throw new ProviderError(`Twilio could not check that number: ${problem.message}`);
      }
    },
    browserPhone: {
      voiceToken(identity) {
        const ttlSeconds = settings.tokenTtlSeconds ?? 3600;
        const token = new twilio.jwt.AccessToken(
          settings.accountSid,
          settings.apiKeySid,
          settings.apiKeySecret,
          {
            identity,
            ttl: ttlSeconds,
          },
        );
        token.addGrant(
          new twilio.jwt.AccessToken.VoiceGrant({
            outgoingApplicationSid: settings.twimlAppSid,
            incomingAllow: true,
          }),
        );
        return { token: token.toJwt(), identity, ttlSeconds };
      },
      dialTwiml(call) {
        const response = new twilio.twiml.VoiceResponse();
        const dial = response.dial({
          callerId: call.from,
          answerOnBridge: true,
          // A recorded call (decision 030): both sides from the answer, reported to our call-recording webhook.
          ...(call.recording && {
            record: 'record-from-answer-dual' as const,
            recordingStatusCallback: twilioCallRecordingUrl(publicUrl, call.id),
            recordingStatusCallbackMethod: 'POST' as const,
            recordingStatusCallbackEvent: ['completed'],
          }),
        });
        dial.number(
          {
            statusCallback: twilioStatusUrl(publicUrl, call.id),
            statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
            statusCallbackMethod: 'POST',
            machineDetection: 'DetectMessageEnd',
            amdStatusCallback: twilioStatusUrl(publicUrl, call.id),
            amdStatusCallbackMethod: 'POST',
            // The disclosure plays to the called person on answering, before the agent is connected.
            ...(call.recording?.disclosure && {
              url: twilioDisclosureUrl(publicUrl, call.id),
              method: 'POST',
            }),
          },
          call.to,
        );
        return response.toString();
      },
      disclosureTwiml(text) {
        const response = new twilio.twiml.VoiceResponse();
        response.say(text);
        return response.toString();
      },
      refuseTwiml(reason) {
        const response = new twilio.twiml.VoiceResponse();
        response.say(reason);
        response.hangup();
        return response.toString();
      },
    },
  };
}
