import {
  decideReach,
  type ReachChannel,
  type ReachDecision,
  type ReachFacts,
  type ReachSettings,
} from '#domain/consent/reach-decision.ts';
import { ABANDONED_REDIAL_HOLD, STATE_RULES } from '#domain/consent/calling-rules.ts';
import { normalizePhone, parsePhone } from '#domain/contacts/phone.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { ConsentRecord } from '#domain/consent/consent-record.ts';
import { findContactEntries, insertConsentEntries, insertConsentEntry } from './consent-record.repository.ts';
import { addDoNotCall, removeDoNotCall } from './do-not-call.repository.ts';
import { standingConsentOf } from './express-consent.repository.ts';
import { stateOfNumber, zonesOfNumber } from '../../telephony/number-places.ts';
import {
  countCallsSince,
  findAbandonedSince,
  findConsentSettings,
  findContactReachRows,
  findNumberOptOuts,
} from './reach-facts.repository.ts';

const DAY_MS = 86_400_000;

export type Reach = { facts: ReachFacts; decision: ReachDecision };

/** The user's side of the rule: their window, what to do with an unknown local time, and their zone for dates. */
export async function reachSettingsOf(db: DbExecutor, userId: string): Promise<ReachSettings> {
  const settings = await findConsentSettings(db, userId);
  return { ...settings, timeZone: settings.timeZone ?? 'UTC' };
}

type Place = { phone: string | null; e164: string | null; timeZone: string | null; state: string | null };

/**
 * A number's facts: the zones and state it is in (the contact's own win over the number's), and whether it is a
 * real number when `validity` asks (a full parse, which only a 'block' setting and the contact page need).
 */
function placeFacts(place: Place, validity: boolean) {
  // A number stored without its E.164 form (written straight into the table) is read from the number as typed.
  const e164 = place.e164 ?? normalizePhone(place.phone);
  return {
    phoneE164: e164,
    phoneValid: validity ? (e164 ? (parsePhone(e164)?.valid ?? false) : false) : null,
    zones: place.timeZone ? [place.timeZone] : zonesOfNumber(e164),
    state: place.state ?? stateOfNumber(e164),
  };
}

/**
 * The call facts the gate reads from the user's calls: the last abandoned call to each number within the hold (a
 * handful of rows, read through a partial index), and the calls placed in the last 24 hours to the numbers whose
 * state limits calls a day (the only ones counted).
 */
async function readCallFacts(db: DbExecutor, userId: string, facts: ReachFacts[], now: Date) {
  const numbers = facts.filter((f) => f.phoneE164);
  if (numbers.length > 0) {
    const since = new Date(now.getTime() - ABANDONED_REDIAL_HOLD.ms);
    const abandoned = await findAbandonedSince(db, userId, since);
    for (const f of numbers) f.abandonedAt = abandoned.get(f.phoneE164!) ?? null;
  }
  await countLimitedCalls(db, userId, facts, now);
}

async function countLimitedCalls(
  db: DbExecutor,
  userId: string,
  facts: ReachFacts[],
  now: Date,
): Promise<void> {
  const limited = facts.filter((f) => f.phoneE164 && f.state && STATE_RULES[f.state]?.maxCallsPer24h);
  if (limited.length === 0) return;
  const since = new Date(now.getTime() - DAY_MS);
  const counts = await countCallsSince(db, userId, [...new Set(limited.map((f) => f.phoneE164!))], since);
  for (const f of limited) f.callsLast24h = counts.get(f.phoneE164!) ?? 0;
}

export type ContactFacts = ReachFacts & {
  zoneSource: 'contact' | 'number' | null;
  /** The express consent that stands, with when it was recorded (the page shows it). */
  standingConsent: ReturnType<typeof standingConsentOf>;
};

/**
 * What the gate knows of many contacts, in one query (and one more for recent calls when `calls` asks for them;
 * numbers are checked for validity when `validity` asks). Contacts not found (another user's, deleted) are absent.
 */
export async function factsForContacts(
  db: DbExecutor,
  userId: string,
  contactIds: string[],
  now: Date,
  { calls, validity }: { calls: boolean; validity: boolean },
): Promise<Map<string, ContactFacts>> {
  const rows = await findContactReachRows(db, userId, contactIds);
  const answer = new Map<string, ContactFacts>();
  for (const row of rows) {
    const place = placeFacts(
      {
        phone: row.phone,
        e164: row.phone_e164,
        timeZone: row.time_zone,
        state: row.state,
      },
      validity,
    );
    answer.set(row.id, {
      ...place,
      zoneSource: row.time_zone ? 'contact' : place.zones ? 'number' : null,
      standingConsent: standingConsentOf(row),
      email: row.email,
      doNotCallSince: row.do_not_call_at,
      textOptOut: row.opted_out_at ? { at: row.opted_out_at, keyword: row.opt_out_keyword ?? 'STOP' } : null,
      unsubscribedAt: row.unsubscribed_at,
      callsLast24h: 0,
      expressConsent:
        row.consent_given_on && row.consent_source
          ? { givenOn: row.consent_given_on, source: row.consent_source }
          : null,
    });
  }
  if (calls) await readCallFacts(db, userId, [...answer.values()], now);
  return answer;
}

/** The gate for many contacts at once (a send batch, the dialer's look-ahead): each one's facts and decision. */
export async function decideForContacts(
  db: DbExecutor,
  userId: string,
  contactIds: string[],
  channel: ReachChannel,
  now: Date,
  settings?: ReachSettings,
): Promise<Map<string, Reach>> {
  const rules = settings ?? (await reachSettingsOf(db, userId));
  const facts = await factsForContacts(db, userId, contactIds, now, {
    calls: channel === 'call',
    validity: rules.unknownLocalTime === 'block' || contactIds.length === 1,
  });
  const answer = new Map<string, Reach>();
  for (const [id, f] of facts) answer.set(id, { facts: f, decision: decideReach(channel, f, rules, now) });
  return answer;
}

/** The gate for one contact. */
export async function decideForContact(
  db: DbExecutor,
  userId: string,
  contactId: string,
  channel: ReachChannel,
  now: Date,
): Promise<Reach | undefined> {
  return (await decideForContacts(db, userId, [contactId], channel, now)).get(contactId);
}

/** The gate for a number typed into the dialer: where the number is, and its opt-outs. */
export async function decideForNumber(
  db: DbExecutor,
  userId: string,
  e164: string,
  channel: ReachChannel,
  now: Date,
): Promise<Reach> {
  const optOuts = await findNumberOptOuts(db, userId, e164);
  const facts: ReachFacts = {
    ...placeFacts({ phone: e164, e164, timeZone: null, state: null }, true),
    email: null,
    doNotCallSince: optOuts.do_not_call_at,
    textOptOut: optOuts.opted_out_at
      ? { at: optOuts.opted_out_at, keyword: optOuts.opt_out_keyword ?? 'STOP' }
      : null,
    unsubscribedAt: null,
    callsLast24h: 0,
    expressConsent: null,
  };
  if (channel === 'call') await readCallFacts(db, userId, [facts], now);
  return { facts, decision: decideReach(channel, facts, await reachSettingsOf(db, userId), now) };
}

/** A contact's opt-outs as their page shows them, or undefined when the contact is not the user's. */
export async function optOutsOfContact(db: DbExecutor, userId: string, contactId: string) {
  const [row] = await findContactReachRows(db, userId, [contactId]);
  if (!row) return undefined;
  return {
    doNotCallSince: row.do_not_call_at,
    textOptOutAt: row.opted_out_at,
    unsubscribedAt: row.unsubscribed_at,
  };
}

/** What a decision used, as the consent record keeps it. */
function recordedFacts(facts: ReachFacts): Record<string, unknown> {
  return {
    number: facts.phoneE164,
    validNumber: facts.phoneValid,
    zones: facts.zones,
    state: facts.state,
    doNotCallSince: facts.doNotCallSince,
    textOptOut: facts.textOptOut,
    unsubscribedAt: facts.unsubscribedAt,
    callsLast24h: facts.callsLast24h,
    abandonedAt: facts.abandonedAt ?? null,
    expressConsent: facts.expressConsent,
  };
}

/**
 * Keeps decisions in the contact's consent record, with the facts they used. `waiting`: a refusal for now that the
 * caller acts on by waiting (the walk, a campaign), not by giving up.
 */
export type DecisionLine = {
  contactId: string | null;
  channel: ReachChannel;
  reach: Reach;
  waiting?: boolean;
};

export async function recordDecisions(
  db: DbExecutor,
  userId: string,
  decisions: readonly DecisionLine[],
  now: Date,
): Promise<void> {
  await insertConsentEntries(
    db,
    userId,
    decisions.map(({ contactId, channel, reach, waiting }) => ({
      contactId,
      number: reach.facts.phoneE164,
      channel,
      outcome: reach.decision.allowed ? 'allowed' : waiting ? 'waiting' : 'refused',
      code: reach.decision.allowed ? null : reach.decision.code,
      reason: reach.decision.allowed ? reach.decision.note : reach.decision.reason,
      facts: recordedFacts(reach.facts),
    })),
    now,
  );
}

/** A do-not-call disposition: the number goes on the user's list, and the contact's record says so. */
export async function putOnDoNotCall(
  db: DbExecutor,
  userId: string,
  contact: { id: string; e164: string },
  now: Date,
): Promise<void> {
  await addDoNotCall(db, userId, contact.e164);
  await insertConsentEntry(
    db,
    userId,
    {
      contactId: contact.id,
      number: contact.e164,
      channel: 'call',
      outcome: 'opted-out',
      code: 'do-not-call',
      reason: 'Asked not to be called: put on your do-not-call list',
      facts: { number: contact.e164 },
    },
    now,
  );
}

/** "Remove from do-not-call": false when the number was not on the list; the contact's record says so. */
export async function takeOffDoNotCall(
  db: DbExecutor,
  userId: string,
  contact: { id: string; e164: string },
  now: Date,
): Promise<boolean> {
  if (!(await removeDoNotCall(db, userId, contact.e164))) return false;
  await insertConsentEntry(
    db,
    userId,
    {
      contactId: contact.id,
      number: contact.e164,
      channel: 'call',
      outcome: 'opted-in',
      code: 'do-not-call',
      reason: 'Removed from your do-not-call list',
      facts: { number: contact.e164 },
    },
    now,
  );
  return true;
}

/** A contact's consent record: the opt-outs standing now and the newest `limit` entries; undefined when not theirs. */
export async function consentRecordOf(
  db: DbExecutor,
  userId: string,
  contactId: string,
  limit: number,
): Promise<(ConsentRecord & { name: string }) | undefined> {
  const [row] = await findContactReachRows(db, userId, [contactId]);
  if (!row) return undefined;
  const entries = await findContactEntries(db, userId, contactId, limit);
  return {
    name: row.name,
    standing: {
      doNotCallSince: row.do_not_call_at?.toISOString() ?? null,
      textOptOutSince: row.opted_out_at?.toISOString() ?? null,
      unsubscribedSince: row.unsubscribed_at?.toISOString() ?? null,
      expressConsent: standingConsentOf(row),
    },
    entries: entries.map((e) => ({
      at: e.decided_at.toISOString(),
      channel: e.channel,
      outcome: e.outcome,
      reason: e.reason,
      number: e.number,
      facts: (e.facts ?? {}) as Record<string, unknown>,
    })),
  };
}
