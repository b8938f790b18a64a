import { createHmac, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { isFinished, type CallStatus } from '#domain/calls/call-status.ts';
import { phoneDigits } from '#domain/contacts/phone.ts';
import { secretsEqual } from '../security/constant-time.ts';
import { simulatedVoiceWav } from './simulated-voice.ts';
import {
  parseTwilioStyleIncomingCall,
  parseTwilioStyleIncomingStatus,
  parseTwilioStyleInbound,
  parseTwilioStyleRecording,
  parseTwilioStyleSmsStatus,
  parseTwilioStyleStatus,
  ProviderError,
  type IncomingCallSupport,
  type SmsSupport,
  type TelephonyProvider,
} from './telephony-provider.ts';

type Step = { afterMs: number; status: CallStatus };
/** Answering-machine detection's result, posted this long after the call starts (Twilio's AnsweredBy value). */
type Detection = { afterMs: number; answeredBy: 'human' | 'machine_end_beep' };

/** The simulator's talk time for a call nobody hangs up (the agent's hang-up ends it sooner). */
const TALK_MS = 30_000;
/** How long the recorded identification message of an abandoned call plays before the call ends. */
const MESSAGE_MS = 6_000;
/** How long a simulated caller stays on a call the user answered, unless the user hangs up first. */
const INBOUND_TALK_MS = 10 * 60_000;
/** How long a simulated caller listens to the greeting before the tone. */
const GREETING_LISTEN_MS = 3000;
/** Where the simulator says a voicemail is: not a network address, only the simulator's own fetch reads it. */
const SIMULATED_RECORDING_PREFIX = 'simulator:recordings/';

/** What the simulator's webhooks answer, in JSON where Twilio's answer in TwiML. */
type SimulatorReply = {
  say?: string;
  voicemail?: { callId: string; greeting: { text: string } | { audioUrl: string }; maxSeconds: number };
};
/** Relayed to the instance running a simulated call: the user answered it (anything else relayed is a hang-up). */
const ANSWER_PREFIX = 'answer:';
/** Relayed likewise: the user declined it. */
const DECLINE_PREFIX = 'decline:';
/** Relayed likewise: the user left a voicemail drop on it (`drop:<milliseconds>:<provider call id>`). */
const DROP_PREFIX = 'drop:';
const json = (value: object) => ({ contentType: 'application/json', body: JSON.stringify(value) });
/** How long a hang-up takes to reach the phone: an answer due within it comes first. */
const HANG_UP_REACH_MS = 300;

/**
 * What the simulator does with a number (README "Calling"), so anyone can reproduce
 * every outcome. By the dialled number's first digits after the country code, provider errors:
 * 999… not verified, 998… geo-permissions, 997… trial account; 996… the provider does not answer at all (as a
 * provider that is down or overloaded would not). Otherwise by its last digit:
 * 0 busy, 1 no answer, 2 failed, 3 answered by a machine after 2 s (answering-machine detection says so 2.5 s
 * after the answer, at the greeting's beep, and the machine records for 30 s), 5 answered by a person after 4.5 s,
 * 6 by a person after 3.1 s, or as soon as the dialer lets the line go (a hang-up while it rings is answered first,
 * then reaches the phone: the parallel dialer's race, made certain), anything else rings, is answered by a person
 * after 3 s (detection says so a second later) and talks for 30 s. A hang-up takes a moment to reach the phone
 * (0.3 s): a call answered within it is answered, then hung up.
 */
export function simulatedOutcome(
  to: string,
): { error: string } | { hang: true } | { steps: Step[]; detection?: Detection; picksUpOnHangUp?: true } {
  const digits = phoneDigits(to).replace(/^1(?=\d{10}$)/, '');
  if (digits.startsWith('999')) return { error: `The number ${to} is not verified for this account.` };
  if (digits.startsWith('998'))
    return { error: `Account not authorized to call ${to}. Check your geo-permissions settings.` };
  if (digits.startsWith('997')) return { error: 'This trial account can only call verified numbers.' };
  if (digits.startsWith('996')) return { hang: true };
  const last = digits.at(-1);
  if (last === '0')
    return {
      steps: [
        { afterMs: 1000, status: 'ringing' },
        { afterMs: 3000, status: 'busy' },
      ],
    };
  if (last === '1')
    return {
      steps: [
        { afterMs: 1000, status: 'ringing' },
        { afterMs: 8000, status: 'no-answer' },
      ],
    };
  if (last === '2') return { steps: [{ afterMs: 1000, status: 'failed' }] };
  const machine = last === '3';
  const answer = machine ? 2000 : last === '5' ? 4500 : last === '6' ? 3100 : 3000;
  return {
    steps: [
      { afterMs: 1000, status: 'ringing' },
      { afterMs: answer, status: 'in-progress' },
      { afterMs: answer + TALK_MS, status: 'completed' },
    ],
    detection: machine
      ? { afterMs: answer + 2500, answeredBy: 'machine_end_beep' }
      : { afterMs: answer + 1000, answeredBy: 'human' },
    ...(last === '6' && { picksUpOnHangUp: true as const }),
  };
}

/**
 * A seeded random model of who answers, for benchmarks (decision 026): each call is answered by a person
 * (`liveShare`), a machine (`machineShare`) or nobody, after a ring time drawn between `ringMs`; detection tells a
 * person 1.2 s after the answer and a machine at the end of its greeting, 3 s after; a person talks for a log-normal
 * time (median `talkMedianMs`, spread `talkSigma`) and hangs up; nobody answers after `noAnswerAfterMs`.
 */
export type CallModel = {
  seed: number;
  liveShare: number;
  machineShare: number;
  ringMs: [number, number];
  talkMedianMs: number;
  talkSigma: number;
  noAnswerAfterMs: number;
};

/**
 * A sales floor's calls, as the parallel-dialing benchmark draws them: 30 % a person, 20 % a machine, 50 % nobody,
 * rings of 5–20 s, talk log-normal with a median of 90 s, no answer after 25 s.
 */
export const SALES_FLOOR_MODEL: CallModel = {
  seed: 2026,
  liveShare: 0.3,
  machineShare: 0.2,
  ringMs: [5_000, 20_000],
  talkMedianMs: 90_000,
  talkSigma: 0.6,
  noAnswerAfterMs: 25_000,
};

/** A small seeded generator (mulberry32): the same seed draws the same calls. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One call drawn from the model. */
export function modelledOutcome(
  model: CallModel,
  random: () => number,
): { steps: Step[]; detection?: Detection } {
  const who = random();
  const ring = model.ringMs[0] + random() * (model.ringMs[1] - model.ringMs[0]);
  if (who >= model.liveShare + model.machineShare)
    return {
      steps: [
        { afterMs: 1000, status: 'ringing' },
        { afterMs: model.noAnswerAfterMs, status: 'no-answer' },
      ],
    };
  const person = who < model.liveShare;
  // Box-Muller: a standard normal from two uniform draws, for the log-normal talk time.
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const talk = person ? model.talkMedianMs * Math.exp(model.talkSigma * normal) : 30_000;
  return {
    steps: [
      { afterMs: 1000, status: 'ringing' },
      { afterMs: ring, status: 'in-progress' },
      { afterMs: ring + talk, status: 'completed' },
    ],
    detection: person
      ? { afterMs: ring + 1200, answeredBy: 'human' }
      : { afterMs: ring + 3000, answeredBy: 'machine_end_beep' },
  };
}

/** What a benchmark watches of the simulated calls, as they happen (real time). */
export type SimulatorObserver = {
  detected?: (providerCallId: string, answeredBy: string) => void;
  connected?: (providerCallId: string) => void;
  messagePlayed?: (providerCallId: string) => void;
};

/**
 * What the simulator does with a text message (README "Calling"): the provider errors of
 * `simulatedOutcome` (999… not verified, 998… geo-permissions, 997… trial; 996… the provider does not answer); a
 * number ending in 2 is accepted but never delivered (an unreachable handset); any other is sent, then delivered.
 */
export function simulatedSmsOutcome(
  to: string,
): { error: string } | { hang: true } | { steps: { afterMs: number; status: string; error?: string }[] } {
  const call = simulatedOutcome(to);
  if ('error' in call || 'hang' in call) return call;
  if (phoneDigits(to).at(-1) === '2')
    return {
      steps: [
        { afterMs: 300, status: 'sent' },
        { afterMs: 1500, status: 'undelivered', error: '30003' },
      ],
    };
  return {
    steps: [
      { afterMs: 300, status: 'sent' },
      { afterMs: 1500, status: 'delivered' },
    ],
  };
}

/**
 * The simulator signs its webhooks as Twilio does, with the URL's query in place of the whole URL: HMAC-SHA256
 * under its secret of the query followed by the parameters sorted by name, each name followed by its value.
 */
export function signSimulatorFields(secret: string, fields: Record<string, string>, query = ''): string {
  const canonical =
    query +
    Object.keys(fields)
      .sort()
      .map((k) => `${k}${fields[k]}`)
      .join('');
  return createHmac('sha256', secret).update(canonical).digest('base64');
}

/**
 * The built-in telephony simulator (the default provider): calls go queued → ringing → in-progress → completed (or
 * busy, no-answer, failed) on the schedule of `simulatedOutcome`, and every status is delivered as a signed webhook
 * to the same route a real provider calls, so the whole product runs with no account and no network. Time can be
 * scaled down for tests.
 */
export function createSimulator(options: {
  secret: string;
  timeScale: number;
  /**
   * Posts a status event to the app's webhook route with `query` (our call id) appended, as a provider calls its
   * status callback URL (app.inject in the app: no network involved); throws if refused. `path` names another
   * webhook than the call status one (SMS delivery reports, messages received); the answer's body is returned.
   */
  deliver: (event: {
    path?: string;
    query: string;
    body: string;
    signature: string;
  }) => Promise<string | void>;
  /** Every text message the simulated provider accepted, as a provider's own records would show it. */
  onSmsAccepted?: (message: { providerMessageId: string; from: string; to: string; body: string }) => void;
  onDeliveryFailure?: (what: string, error: unknown) => void;
  /** Every message played to a called person (an abandoned call's identification), as the recording would show it. */
  onMessagePlayed?: (played: { providerCallId: string; message: string }) => void;
  /** Calls drawn from a seeded model instead of by their number (benchmarks). */
  model?: CallModel;
  observer?: SimulatorObserver;
  /**
   * Hang-ups between server instances: a simulated call lives in the memory of the instance that placed it, so
   * END CALL reaching another instance is passed on to all of them (PostgreSQL NOTIFY), and the owner ends it.
   */
  relay?: {
    publish: (providerCallId: string) => Promise<void>;
    subscribe: (handler: (providerCallId: string) => void) => void;
  };
}): TelephonyProvider {
  /** As a real provider does, a webhook that fails is sent again (three tries, backing off), then reported. */
  const deliverWithRetries = async (
    event: { path?: string; query: string; body: string; signature: string },
    what: string,
  ) => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        return await options.deliver(event);
      } catch (error) {
        if (attempt === 3) return options.onDeliveryFailure?.(what, error);
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  };
  const { model } = options;
  const random = model ? seededRandom(model.seed) : null;
  const running = new Map<
    string,
    {
      callId: string;
      timers: NodeJS.Timeout[];
      status: CallStatus;
      answeredAt: number | null;
      /** When the call is due to be answered (real time), if it will be. */
      answerAt: number | null;
      /** Someone picks up the moment a hang-up is sent while it rings (number ending in 6). */
      picksUpOnHangUp?: boolean;
      /** An incoming call's caller leaves a message this long if nobody answers (0: hangs up at the tone). */
      voicemailSeconds?: number;
      /** The call is recorded, after this disclosure (decision 030). */
      recording?: { disclosure: string | null } | undefined;
    }
  >();

  /** One signed webhook to the call status URL, as a provider posts it (status events and detection alike). */
  const post = (call: { callId: string }, fields: Record<string, string>, what: string) => {
    const body = new URLSearchParams(fields).toString();
    const query = `?${new URLSearchParams({ callId: call.callId }).toString()}`;
    const event = { query, body, signature: signSimulatorFields(options.secret, fields, query) };
    void deliverWithRetries(event, what);
  };

  const send = (providerCallId: string, status: CallStatus) => {
    const call = running.get(providerCallId);
    if (!call) return;
    const now = Date.now();
    call.status = status;
    if (status === 'in-progress') {
      // The talk counts from when the answer was due: a busy event loop may run the answer's timer late, and the
      // hang-up, scheduled from the placing, would then make the talk look shorter than it was.
      call.answeredAt = Math.min(call.answerAt ?? now, now);
      // A recorded call's disclosure is the first thing the called person hears (decision 030).
      if (call.recording?.disclosure)
        options.onMessagePlayed?.({ providerCallId, message: call.recording.disclosure });
    }
    const fields: Record<string, string> = { CallSid: providerCallId, CallStatus: status };
    if (isFinished(status)) {
      const talked = call.answeredAt ? (now - call.answeredAt) / 1000 / options.timeScale : 0;
      fields.CallDuration = String(Math.round(talked));
      running.delete(providerCallId);
      call.timers.forEach(clearTimeout);
      if (call.recording && Math.round(talked) > 0)
        reportRecording(providerCallId, call.callId, Math.round(talked));
    }
    post(call, fields, `${providerCallId} ${status}`);
  };
  /** A recorded call's recording is ready once the call ends, as Twilio's recordingStatusCallback reports it. */
  const reportRecording = (providerCallId: string, callId: string, seconds: number) => {
    const recordingSid = `RESIM${randomBytes(16).toString('hex')}`;
    const fields = {
      CallSid: providerCallId,
      RecordingSid: recordingSid,
      RecordingUrl: `${SIMULATED_RECORDING_PREFIX}${recordingSid}?seconds=${seconds}`,
      RecordingDuration: String(seconds),
      RecordingStatus: 'completed',
    };
    const query = `?${new URLSearchParams({ callId }).toString()}`;
    void deliverWithRetries(
      {
        path: '/api/telephony/simulator/call-recording',
        query,
        body: new URLSearchParams(fields).toString(),
        signature: signSimulatorFields(options.secret, fields, query),
      },
      `${providerCallId} recording`,
    );
  };

  /** Answering-machine detection's result, to the same status URL, as Twilio's AsyncAmdStatusCallback posts it. */
  const detect = (providerCallId: string, detection: Detection) => {
    const call = running.get(providerCallId);
    if (!call || call.status !== 'in-progress') return;
    const fields: Record<string, string> = {
      CallSid: providerCallId,
      AnsweredBy: detection.answeredBy,
      MachineDetectionDuration: String(
        Math.round((Date.now() - (call.answeredAt ?? Date.now())) / options.timeScale),
      ),
    };
    options.observer?.detected?.(providerCallId, detection.answeredBy);
    post(call, fields, `${providerCallId} answered by ${detection.answeredBy}`);
  };

  /**
   * A hang-up takes a moment to reach the phone (HANG_UP_REACH_MS): a call answered within that moment is answered
   * first, then hung up, as a person who picks up just as the dialer lets go hears the line drop.
   */
  const hangUpHere = (providerCallId: string): boolean => {
    const call = running.get(providerCallId);
    if (!call) return false;
    if (call.picksUpOnHangUp && call.status !== 'in-progress' && call.answerAt !== null) {
      // They pick up now; the hang-up reaches the phone a moment later.
      call.timers.forEach(clearTimeout);
      call.timers = [];
      call.picksUpOnHangUp = false;
      call.answerAt = Date.now();
      send(providerCallId, 'in-progress');
      call.timers.push(
        setTimeout(() => void hangUpHere(providerCallId), HANG_UP_REACH_MS * options.timeScale),
      );
      return true;
    }
    const untilAnswer = call.answerAt === null ? Infinity : call.answerAt - Date.now();
    // An answer already due whose timer a busy event loop has not yet run is an answer all the same.
    if (call.status !== 'in-progress' && untilAnswer <= HANG_UP_REACH_MS * options.timeScale)
      call.timers.push(setTimeout(() => void hangUpHere(providerCallId), Math.max(untilAnswer, 0) + 1));
    else send(providerCallId, call.status === 'in-progress' ? 'completed' : 'canceled');
    return true;
  };
  /** A simulated incoming call the user picked up: the caller stays until the user hangs up (or 10 minutes pass). */
  const answerHere = (providerCallId: string): boolean => {
    const call = running.get(providerCallId);
    if (!call) return false;
    if (call.status !== 'ringing') return true;
    call.timers.forEach(clearTimeout);
    call.status = 'in-progress';
    call.answeredAt = Date.now();
    call.timers = [setTimeout(() => send(providerCallId, 'completed'), INBOUND_TALK_MS * options.timeScale)];
    return true;
  };
  /**
   * A voicemail drop: the answered party hears the message for its length (at the simulator's pace), then the call
   * ends; the agent is let go at once (the server's part: the simulated browser phone follows the call's state).
   */
  const dropHere = (providerCallId: string, ms: number): boolean => {
    const call = running.get(providerCallId);
    if (!call) return false;
    if (call.status !== 'in-progress') return true;
    options.onMessagePlayed?.({
      providerCallId,
      message: `(voicemail drop, ${Math.round(ms / 1000)} s)`,
    });
    call.timers.forEach(clearTimeout);
    call.timers = [setTimeout(() => send(providerCallId, 'completed'), ms * options.timeScale)];
    return true;
  };
  options.relay?.subscribe((message) => {
    if (message.startsWith(ANSWER_PREFIX)) void answerHere(message.slice(ANSWER_PREFIX.length));
    else if (message.startsWith(DECLINE_PREFIX)) void declineHere(message.slice(DECLINE_PREFIX.length));
    else if (message.startsWith(DROP_PREFIX)) {
      const [ms, providerCallId] = message.slice(DROP_PREFIX.length).split(':');
      void dropHere(providerCallId ?? '', Number(ms));
    } else void hangUpHere(message);
  });
  /** The user declined a simulated incoming call: its ringing ends now, busy, and the caller goes to voicemail. */
  const declineHere = (providerCallId: string): boolean => {
    if (!running.has(providerCallId)) return false;
    missIncoming(providerCallId, 'busy');
    return true;
  };

  /**
   * Nobody picked up in time (or the user declined: busy): the ringing is over, as Twilio's Dial action reports it;
   * the caller hears the answer.
   */
  const missIncoming = (providerCallId: string, status: 'no-answer' | 'busy' = 'no-answer') => {
    const call = running.get(providerCallId);
    if (!call || call.status !== 'ringing') return;
    running.delete(providerCallId);
    call.timers.forEach(clearTimeout);
    const fields = { CallSid: providerCallId, DialCallStatus: status, DialCallDuration: '0' };
    const query = `?${new URLSearchParams({ callId: call.callId }).toString()}`;
    void deliverWithRetries(
      {
        path: '/api/telephony/simulator/incoming-status',
        query,
        body: new URLSearchParams(fields).toString(),
        signature: signSimulatorFields(options.secret, fields, query),
      },
      `${providerCallId} missed`,
    ).then((answer) => {
      const reply = heard(providerCallId, answer);
      if (reply.voicemail && call.voicemailSeconds)
        leaveVoicemail(providerCallId, reply.voicemail.callId, call.voicemailSeconds);
    });
  };
  /** What the webhook told the caller, as a recording of the call would show it. */
  const heard = (providerCallId: string, answer: string | void) => {
    const reply = answer ? (JSON.parse(answer) as SimulatorReply) : {};
    const greeting = reply.voicemail?.greeting;
    const message =
      reply.say ??
      (greeting && ('text' in greeting ? greeting.text : `(recorded greeting) ${greeting.audioUrl}`));
    if (message) options.onMessagePlayed?.({ providerCallId, message });
    return reply;
  };
  /**
   * The caller speaks after the tone for `seconds`, then hangs up: the voicemail webhook hears they are done (its
   * answer, the thanks, is played), then the recording's report says where to fetch it, as Twilio's Record does.
   */
  const leaveVoicemail = (providerCallId: string, callId: string, seconds: number) => {
    const recordingSid = `RESIM${randomBytes(16).toString('hex')}`;
    const fields = {
      CallSid: providerCallId,
      RecordingSid: recordingSid,
      RecordingUrl: `${SIMULATED_RECORDING_PREFIX}${recordingSid}?seconds=${seconds}`,
      RecordingDuration: String(seconds),
    };
    const query = `?${new URLSearchParams({ callId }).toString()}`;
    const hook = (path: string, extra: Record<string, string>) => {
      const signed = { ...fields, ...extra };
      return deliverWithRetries(
        {
          path,
          query,
          body: new URLSearchParams(signed).toString(),
          signature: signSimulatorFields(options.secret, signed, query),
        },
        `${providerCallId} voicemail`,
      );
    };
    setTimeout(
      () =>
        void hook('/api/telephony/simulator/voicemail', {})
          .then((answer) => heard(providerCallId, answer))
          .then(() => hook('/api/telephony/simulator/voicemail-recording', { RecordingStatus: 'completed' })),
      (GREETING_LISTEN_MS + seconds * 1000) * options.timeScale,
    ).unref();
  };

  /**
   * Calls to our numbers (decision 028): the webhook's answer says ring (for so many seconds) or say a message and
   * hang up, in JSON where Twilio's says it in TwiML.
   */
  const incoming: IncomingCallSupport = {
    parse: (body) => {
      const call = parseTwilioStyleIncomingCall(body);
      // Signed with the rest of the fields, so only the simulator itself can say whose simulation it is.
      const user = /^[0-9a-f-]{36}$/.test(body.SimulatedFor ?? '') ? body.SimulatedFor : undefined;
      return call && user ? { ...call, simulatedFor: user } : call;
    },
    ringReply: ({ id, ringSeconds, recording }) =>
      json({ ring: { callId: id, seconds: ringSeconds, ...(recording && { recording }) } }),
    sayReply: (message) => json({ say: message }),
    endReply: () => json({ end: true }),
    parseStatus: parseTwilioStyleIncomingStatus,
    voicemailReply: (voicemail) => json({ voicemail }),
    parseRecording: parseTwilioStyleRecording,
    /** A simulated caller's message: a made-up sound of the length they spoke (no voice is involved). */
    /** The simulator keeps nothing: its recordings are made up again from their URL. */
    deleteRecording: () => Promise.resolve(),
    fetchRecording(url) {
      const match = new RegExp(`^${SIMULATED_RECORDING_PREFIX}RESIM[0-9a-f]{32}\\?seconds=(\\d{1,5})$`).exec(
        url,
      );
      if (!match) return Promise.reject(new Error(`Not a simulated recording: ${url.slice(0, 100)}`));
      const wav = simulatedVoiceWav(Number(match[1]));
      return Promise.resolve({
        body: Readable.from([Buffer.from(wav)]),
        contentType: 'audio/wav',
        extension: 'wav',
      });
    },
    async simulate({ from, to, userId, voicemailSeconds }) {
      const providerCallId = `SIM${randomBytes(16).toString('hex')}`;
      const fields = { CallSid: providerCallId, From: from, To: to, SimulatedFor: userId };
      const answer = await options.deliver({
        path: '/api/telephony/simulator/incoming',
        query: '',
        body: new URLSearchParams(fields).toString(),
        signature: signSimulatorFields(options.secret, fields),
      });
      const reply = answer
        ? (JSON.parse(answer) as {
            ring?: { callId: string; seconds: number; recording?: { disclosure: string | null } };
          })
        : {};
      if (!reply.ring) {
        // Straight to voicemail (nobody's browser open): the caller leaves one as after a missed ring.
        const told = heard(providerCallId, answer);
        if (told.voicemail && voicemailSeconds)
          leaveVoicemail(providerCallId, told.voicemail.callId, voicemailSeconds);
        return;
      }
      running.set(providerCallId, {
        callId: reply.ring.callId,
        timers: [
          setTimeout(() => missIncoming(providerCallId), reply.ring.seconds * 1000 * options.timeScale),
        ],
        status: 'ringing',
        answeredAt: null,
        answerAt: null,
        voicemailSeconds,
        recording: reply.ring.recording,
      });
      // A recorded call's disclosure is heard before the ringing, as Twilio's <Say> before <Dial> plays it.
      if (reply.ring.recording?.disclosure)
        options.onMessagePlayed?.({ providerCallId, message: reply.ring.recording.disclosure });
    },
    async answer(providerCallId) {
      if (!answerHere(providerCallId)) await options.relay?.publish(`${ANSWER_PREFIX}${providerCallId}`);
    },
    async decline(providerCallId) {
      if (!declineHere(providerCallId)) await options.relay?.publish(`${DECLINE_PREFIX}${providerCallId}`);
    },
  };

  const sms: SmsSupport = {
    send(request) {
      const outcome = simulatedSmsOutcome(request.to);
      if ('error' in outcome) return Promise.reject(new ProviderError(outcome.error));
      if ('hang' in outcome) return new Promise(() => undefined);
      const providerMessageId = `SMSIM${randomBytes(16).toString('hex')}`;
      options.onSmsAccepted?.({ providerMessageId, from: request.from, to: request.to, body: request.body });
      const query = `?${new URLSearchParams({ ref: request.ref }).toString()}`;
      for (const step of outcome.steps)
        setTimeout(() => {
          const fields: Record<string, string> = {
            MessageSid: providerMessageId,
            MessageStatus: step.status,
          };
          if (step.error) fields.ErrorCode = step.error;
          const body = new URLSearchParams(fields).toString();
          const signature = signSimulatorFields(options.secret, fields, query);
          void deliverWithRetries(
            { path: '/api/telephony/simulator/sms-status', query, body, signature },
            `${providerMessageId} ${step.status}`,
          );
        }, step.afterMs * options.timeScale).unref();
      return Promise.resolve({ providerMessageId });
    },
    parseStatus: parseTwilioStyleSmsStatus,
    parseInbound: (body) => {
      const message = parseTwilioStyleInbound(body);
      // Signed with the rest of the fields, so only the simulator itself can say whose simulation it is.
      const user = /^[0-9a-f-]{36}$/.test(body.SimulatedFor ?? '') ? body.SimulatedFor : undefined;
      return message && user ? { ...message, simulatedFor: user } : message;
    },
    reply: (text) => ({ contentType: 'text/plain; charset=utf-8', body: text ?? '' }),
    async simulateInbound({ from, to, body: text, userId }) {
      const fields = {
        MessageSid: `SMSIM${randomBytes(16).toString('hex')}`,
        From: from,
        To: to,
        Body: text,
        SimulatedFor: userId,
      };
      const answer = await options.deliver({
        path: '/api/telephony/simulator/sms-inbound',
        query: '',
        body: new URLSearchParams(fields).toString(),
        signature: signSimulatorFields(options.secret, fields),
      });
      return answer || null;
    },
  };

  return {
    name: 'simulator',
    sms,
    incoming,
    placeCall(request) {
      const outcome = model && random ? modelledOutcome(model, random) : simulatedOutcome(request.to);
      if ('error' in outcome) return Promise.reject(new ProviderError(outcome.error));
      if ('hang' in outcome) return new Promise(() => undefined);
      const providerCallId = `SIM${randomBytes(16).toString('hex')}`;
      const timers = outcome.steps.map((step) =>
        setTimeout(() => send(providerCallId, step.status), step.afterMs * options.timeScale),
      );
      const { detection } = outcome;
      if (detection)
        timers.push(
          setTimeout(() => detect(providerCallId, detection), detection.afterMs * options.timeScale),
        );
      const answer = outcome.steps.find((step) => step.status === 'in-progress');
      running.set(providerCallId, {
        callId: request.callId,
        timers,
        status: 'queued',
        answeredAt: null,
        answerAt: answer ? Date.now() + answer.afterMs * options.timeScale : null,
        picksUpOnHangUp: 'picksUpOnHangUp' in outcome && outcome.picksUpOnHangUp === true,
        recording: request.recording,
      });
      return Promise.resolve({ providerCallId });
    },
    async hangUp(providerCallId) {
      if (!hangUpHere(providerCallId)) await options.relay?.publish(providerCallId);
    },
    // The simulated call is the agent's as soon as it is answered: nothing to put through.
    connectAgent: (providerCallId) => {
      options.observer?.connected?.(providerCallId);
      return Promise.resolve();
    },
    /** The message is played as a recording (its length at the simulator's pace), then the call ends. */
    playAndHangUp(providerCallId, message) {
      const call = running.get(providerCallId);
      if (!call) return Promise.resolve();
      options.onMessagePlayed?.({ providerCallId, message });
      options.observer?.messagePlayed?.(providerCallId);
      call.timers.forEach(clearTimeout);
      call.timers = [setTimeout(() => send(providerCallId, 'completed'), MESSAGE_MS * options.timeScale)];
      return Promise.resolve();
    },
    async dropVoicemail(providerCallId, { seconds }) {
      const ms = Math.round(seconds * 1000);
      if (!dropHere(providerCallId, ms))
        await options.relay?.publish(`${DROP_PREFIX}${ms}:${providerCallId}`);
    },
    verifyWebhook({ url, headers, body }) {
      const given = String(headers['x-simulator-signature'] ?? '');
      const expected = signSimulatorFields(options.secret, body, new URL(url, 'http://localhost').search);
      return secretsEqual(given, expected);
    },
    parseStatus: parseTwilioStyleStatus,
    browserPhone: null,
    callerIdStatus: () => Promise.resolve('verified'),
  };
}
