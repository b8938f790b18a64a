import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_ACCOUNT_SID = `AC${'1'.repeat(32)}`;
export const FAKE_AUTH_TOKEN = 'fake-auth-token-0123456789abcdef';

/** One request the SDK sent, as Twilio would receive it. */
export type FakeTwilioRequest = {
  method: string;
  path: string;
  contentType: string | undefined;
  authorization: { user: string; password: string } | null;
  form: Record<string, string[]>;
};

export type FakeTwilio = {
  baseUrl: string;
  requests: FakeTwilioRequest[];
  /** Numbers Twilio refuses as a trial account does (error 21219). */
  unverified: Set<string>;
  /** Delay every answer by this many ms (a slow or overloaded API). */
  delayMs: number;
  /** The SIDs of the calls created so far, in order. */
  created: string[];
  /** Numbers the account owns (IncomingPhoneNumbers), in E.164. */
  ownedNumbers: Set<string>;
  /** Numbers verified as caller IDs on the account (OutgoingCallerIds), in E.164. */
  verifiedCallerIds: Set<string>;
  /** Every update of a live call (Calls/{Sid}.json): its SID and what was asked (Status, Twiml or Url). */
  callUpdates: { sid: string; status?: string; twiml?: string }[];
  /** The text messages created so far (Messages.json), in order. */
  messages: { sid: string; to: string; from: string; body: string; statusCallback: string | undefined }[];
  /** Recordings the account holds, by SID (RE…): served as MP3 at their URL + '.mp3' (Recordings/{Sid}.mp3). */
  recordings: Map<string, Buffer>;
  /** Recordings started on a live call (Calls/{Sid}/Recordings.json), in order. */
  recordingsStarted: { callSid: string; channels: string; statusCallback: string | undefined }[];
  /** The recordings deleted (DELETE Recordings/{Sid}.json), in order. */
  recordingsDeleted: string[];
  /** The next this many recording deletions answer 503 (Twilio unavailable). */
  recordingDeletesToFail: number;
  close: () => Promise<void>;
};

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

const readForm = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const form: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
    (form[key] ??= []).push(value);
  return form;
};

const basicAuth = (header: string | undefined) => {
  const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1];
  if (!encoded) return null;
  const [user, ...rest] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return { user: user ?? '', password: rest.join(':') };
};

const send = (response: ServerResponse, status: number, body: object) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** Twilio's error body (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions). */
const twilioError = (status: number, code: number, message: string) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});

/**
 * A local stand-in for the part of Twilio's REST API (2010-04-01) the adapter uses, following Twilio's published
 * API: Basic auth with the account SID and auth token, form-encoded bodies, JSON answers.
 * - POST /2010-04-01/Accounts/{AccountSid}/Calls.json: To, From and one of Url, Twiml or ApplicationSid required;
 *   answers 201 with a call resource (status queued);
 * - POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}.json: Status=completed or canceled, or new instructions
 *   (Twiml or Url) for a call in progress; a call already ended refuses new instructions (21220);
 * - DELETE …/Recordings/{RecordingSid}.json: 204, or 404 (20404) for one the account does not hold;
 * - POST …/Calls/{CallSid}/Recordings.json: starts recording a live call (RecordingChannels,
 *   RecordingStatusCallback); answers 201 with a recording resource; an ended call is refused (21220);
 * - POST /2010-04-01/Accounts/{AccountSid}/Messages.json: To, From and Body required; answers 201 with a message
 *   resource (status queued); an unverified To is refused as a trial account does (21608);
 * - GET …/IncomingPhoneNumbers.json and …/OutgoingCallerIds.json, filtered by PhoneNumber: the account's own
 *   numbers and its verified caller IDs;
 * anything else 404, bad credentials 401 (20003), a missing parameter 400 (21201 and friends).
 */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const calls = new Map<string, { status: string }>();
  const fake: Omit<FakeTwilio, 'baseUrl' | 'close'> = {
    requests: [],
    unverified: new Set(),
    delayMs: 0,
    created: [],
    callUpdates: [],
    ownedNumbers: new Set(),
    verifiedCallerIds: new Set(),
    messages: [],
    recordings: new Map(),
    recordingsStarted: [],
    recordingsDeleted: [],
    recordingDeletesToFail: 0,
  };
  const server = createServer((request, response) => {
    void (async () => {
      const form = await readForm(request);
      const url = new URL(request.url ?? '/', 'http://fake');
      const path = url.pathname;
      const authorization = basicAuth(request.headers.authorization);
      fake.requests.push({
        method: request.method ?? '',
        path,
        contentType: request.headers['content-type'],
        authorization,
        form,
      });
      if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
      if (authorization?.user !== FAKE_ACCOUNT_SID || authorization.password !== FAKE_AUTH_TOKEN)
        return send(response, 401, twilioError(401, 20003, 'Authenticate'));
      const one = (key: string) => form[key]?.[0];
      const base = `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Calls`;
      if (request.method === 'POST' && path === `${base}.json`) {
        if (!one('To')) return send(response, 400, twilioError(400, 21201, "No 'To' number is specified"));
        if (!one('From'))
          return send(response, 400, twilioError(400, 21213, "No 'From' number is specified"));
        if (!one('Url') && !one('Twiml') && !one('ApplicationSid'))
          return send(response, 400, twilioError(400, 21205, 'Url parameter is required.'));
        if (fake.unverified.has(one('To')!))
          return send(
            response,
            400,
            twilioError(
              400,
              21219,
              `The number ${one('To')} is unverified. Trial accounts cannot call unverified numbers; verify ${one('To')} at twilio.com/user/account/phone-numbers/verified, or purchase a Twilio number to call unverified numbers.`,
            ),
          );
        const callSid = sid('CA');
        calls.set(callSid, { status: 'queued' });
        fake.created.push(callSid);
        return send(response, 201, {
          sid: callSid,
          account_sid: FAKE_ACCOUNT_SID,
          to: one('To'),
          from: one('From'),
          status: 'queued',
          direction: 'outbound-api',
          api_version: '2010-04-01',
          uri: `${base}/${callSid}.json`,
        });
      }
      const account = `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}`;
      if (request.method === 'POST' && path === `${account}/Messages.json`) {
        if (!one('To'))
          return send(response, 400, twilioError(400, 21604, "A 'To' phone number is required."));
        if (!one('From') && !one('MessagingServiceSid'))
          return send(response, 400, twilioError(400, 21603, "A 'From' phone number is required."));
        if (!one('Body') && !one('MediaUrl'))
          return send(response, 400, twilioError(400, 21602, 'Message body is required.'));
        if (fake.unverified.has(one('To')!))
          return send(
            response,
            400,
            twilioError(
              400,
              21608,
              `The number ${one('To')} is unverified. Trial accounts cannot send messages to unverified numbers.`,
            ),
          );
        const messageSid = sid('SM');
        fake.messages.push({
          sid: messageSid,
          to: one('To')!,
          from: one('From')!,
          body: one('Body')!,
          statusCallback: one('StatusCallback'),
        });
        return send(response, 201, {
          sid: messageSid,
          account_sid: FAKE_ACCOUNT_SID,
          to: one('To'),
          from: one('From'),
          body: one('Body'),
          status: 'queued',
          direction: 'outbound-api',
          api_version: '2010-04-01',
          uri: `${account}/Messages/${messageSid}.json`,
        });
      }
      const lists = {
        [`${account}/IncomingPhoneNumbers.json`]: ['incoming_phone_numbers', fake.ownedNumbers, 'PN'],
        [`${account}/OutgoingCallerIds.json`]: ['outgoing_caller_ids', fake.verifiedCallerIds, 'PN'],
      } as const;
      const list = lists[path];
      if (request.method === 'GET' && list) {
        const [key, numbers, prefix] = list;
        const wanted = url.searchParams.get('PhoneNumber');
        const found = [...numbers].filter((n) => !wanted || n === wanted);
        return send(response, 200, {
          [key]: found.map((n) => ({
            sid: sid(prefix),
            account_sid: FAKE_ACCOUNT_SID,
            phone_number: n,
            friendly_name: n,
          })),
          page: 0,
          page_size: 50,
          start: 0,
          end: found.length,
          first_page_uri: `${path}?PageSize=50&Page=0`,
          next_page_uri: null,
          previous_page_uri: null,
          uri: `${path}?PageSize=50&Page=0`,
        });
      }
      const recording = new RegExp(
        `^/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Recordings/(RE[0-9a-f]{32})\\.mp3$`,
      ).exec(path);
      if (request.method === 'GET' && recording) {
        const audio = fake.recordings.get(recording[1]!);
        if (!audio)
          return send(response, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
        response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length });
        return response.end(audio);
      }
      const startRecording = new RegExp(`^${base}/(CA[0-9a-f]{32})/Recordings\\.json$`).exec(path);
      if (request.method === 'POST' && startRecording) {
        const call = calls.get(startRecording[1]!);
        if (!call)
          return send(response, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
        if (['completed', 'canceled'].includes(call.status))
          return send(response, 400, twilioError(400, 21220, 'Invalid call state'));
        const recordingSid = sid('RE');
        fake.recordingsStarted.push({
          callSid: startRecording[1]!,
          channels: one('RecordingChannels') ?? 'mono',
          statusCallback: one('RecordingStatusCallback'),
        });
        return send(response, 201, {
          sid: recordingSid,
          account_sid: FAKE_ACCOUNT_SID,
          call_sid: startRecording[1],
          status: 'in-progress',
          channels: one('RecordingChannels') === 'dual' ? 2 : 1,
          source: 'StartCallRecordingAPI',
          api_version: '2010-04-01',
          uri: `${base}/${startRecording[1]}/Recordings/${recordingSid}.json`,
        });
      }
      const removal = new RegExp(`^${account}/Recordings/(RE[0-9a-f]{32})\\.json$`).exec(path);
      if (request.method === 'DELETE' && removal) {
        if (fake.recordingDeletesToFail > 0) {
          fake.recordingDeletesToFail -= 1;
          return send(response, 503, twilioError(503, 20500, 'Service Unavailable'));
        }
        if (!fake.recordings.delete(removal[1]!))
          return send(response, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
        fake.recordingsDeleted.push(removal[1]!);
        response.writeHead(204);
        return response.end();
      }
      const update = new RegExp(`^${base}/(CA[0-9a-f]{32})\\.json$`).exec(path);
      if (request.method === 'POST' && update) {
        const call = calls.get(update[1]!);
        if (!call)
          return send(response, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
        if (one('Status') && !['completed', 'canceled'].includes(one('Status')!))
          return send(response, 400, twilioError(400, 21220, 'Invalid call state'));
        if ((one('Twiml') || one('Url')) && ['completed', 'canceled'].includes(call.status))
          return send(response, 400, twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.'));
        fake.callUpdates.push({
          sid: update[1]!,
          ...(one('Status') ? { status: one('Status') } : {}),
          ...(one('Twiml') ? { twiml: one('Twiml') } : {}),
        });
        call.status = one('Status') ?? call.status;
        return send(response, 200, { sid: update[1], account_sid: FAKE_ACCOUNT_SID, status: call.status });
      }
      return send(response, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign<typeof fake, Pick<FakeTwilio, 'baseUrl' | 'close'>>(fake, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
