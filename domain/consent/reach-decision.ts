import { z } from 'zod';
import {
  atMinuteIn,
  clockOf,
  dayIn,
  minuteOfDayIn,
  nextDay,
  spokenTimeIn,
  usDay,
  zonePlace,
} from '../time/zoned-time.ts';
import {
  ABANDONED_REDIAL_HOLD,
  PRERECORDED_MESSAGE_RULE,
  STATE_RULES,
  windowFor,
  type CallingWindow,
} from './calling-rules.ts';

/**
 * The ways a contact is reached. Campaign e-mail honours unsubscribes; a one-off e-mail is a person writing. A
 * prerecorded message (a voicemail drop) is a call of its own kind: it needs the contact's express consent.
 */
export const ReachChannelSchema = z.enum(['call', 'text', 'campaign-email', 'email', 'prerecorded']);
export type ReachChannel = z.infer<typeof ReachChannelSchema>;

export const ReachBlockSchema = z.enum([
  'no-phone',
  'invalid-phone',
  'no-email',
  'do-not-call',
  'texted-stop',
  'unsubscribed',
  'outside-hours',
  'unknown-local-time',
  'call-limit',
  'abandoned',
  'no-prerecorded-consent',
]);
export type ReachBlock = z.infer<typeof ReachBlockSchema>;

/** What the gate knows of one contact, read at once for many (the set-at-once reader). */
export type ReachFacts = {
  /** The number in E.164, null when the contact has none. */
  phoneE164: string | null;
  /** Whether the number is a real, diallable one for its country; null when not asked (only 'block' needs it). */
  phoneValid: boolean | null;
  email: string | null;
  /** The zones the contact may be in (the contact's own, or all the number's); null when unknown. */
  zones: string[] | null;
  /** The contact's US state (their own, or the number's area code), for the state's rules. */
  state: string | null;
  doNotCallSince: Date | null;
  /** When the number texted STOP (or another opt-out word), and the word. */
  textOptOut: { at: Date; keyword: string } | null;
  unsubscribedAt: Date | null;
  /** Calls placed to the contact's number in the last 24 hours. */
  callsLast24h: number;
  /** When a call to the number was last abandoned by a dialer, if within the last 72 hours (calls only). */
  abandonedAt?: Date | null;
  /** The contact's express consent to calls and texts, as a user recorded it; null when none stands. */
  expressConsent: ExpressConsent | null;
};

/** A contact's express consent: the day they gave it (YYYY-MM-DD) and where (a web form, a signed agreement). */
export type ExpressConsent = { givenOn: string; source: string };

/** The user's side of the rule. */
export type ReachSettings = {
  /** The user's own calling window, which narrows the law's (never widens it). */
  window?: CallingWindow | null;
  /** A contact whose local time is unknown, or whose number cannot be placed: call them, or not. */
  unknownLocalTime: 'block' | 'allow';
  /** The zone dates in reasons are written in (the user's). */
  timeZone: string;
};

export type ReachDecision =
  | { allowed: true; window: CallingWindow | null; note: string | null }
  | { allowed: false; code: ReachBlock; reason: string; retryAt: Date | null };

const MAX_DAYS_TO_OPEN = 3;

/** MM/dd/yyyy of a moment in a zone. */
function dateIn(at: Date, timeZone: string): string {
  return usDay(dayIn(at, timeZone));
}

const refuse = (code: ReachBlock, reason: string, retryAt: Date | null = null): ReachDecision => ({
  allowed: false,
  code,
  reason,
  retryAt,
});

const inWindow = (minute: number, w: CallingWindow) => minute >= w.from && minute < w.to;

/**
 * The first moment at or after `now` when every zone is inside the window (a number spanning several zones is
 * reached only when it is within hours in all of them), or null if no such moment comes within a few days (an
 * empty intersection).
 */
export function nextOpening(now: Date, zones: string[], window: CallingWindow): Date | null {
  let at = now;
  const limit = now.getTime() + MAX_DAYS_TO_OPEN * 86_400_000;
  while (at.getTime() <= limit) {
    const closed = zones.find((z) => !inWindow(minuteOfDayIn(at, z), window));
    if (!closed) return at;
    // Move to when the closed zone's window next opens, and check the others again there.
    const today = dayIn(at, closed);
    const opensToday = atMinuteIn(today, window.from, closed);
    const next =
      opensToday.getTime() > at.getTime() ? opensToday : atMinuteIn(nextDay(today), window.from, closed);
    at = next;
  }
  return null;
}

/**
 * Hours decisions kept for the moment they were taken: a batch of thousands of contacts shares one `now` and a few
 * zones, so each zone's local time is read once per batch.
 */
const hoursMemo = new Map<string, ReachDecision>();
const FEDERAL_HOURS_WAIVED = 'federal calling hours do not apply';

function hoursDecision(facts: ReachFacts, settings: ReachSettings, now: Date): ReachDecision {
  const key = [
    now.getTime(),
    facts.zones?.join(',') ?? '',
    facts.state ?? '',
    settings.window?.from ?? '',
    settings.window?.to ?? '',
    settings.unknownLocalTime,
    facts.expressConsent ? 'consent' : '',
  ].join('|');
  const known = hoursMemo.get(key);
  if (known) return known;
  if (hoursMemo.size > 10_000) hoursMemo.clear();
  const decision = decideHours(facts, settings, now);
  hoursMemo.set(key, decision);
  return decision;
}

function decideHours(facts: ReachFacts, settings: ReachSettings, now: Date): ReachDecision {
  const window = windowFor(facts.state, settings.window, facts.expressConsent !== null);
  if (!window) return { allowed: true, window: null, note: FEDERAL_HOURS_WAIVED };
  const label = `calling hours ${clockOf(window.from)}–${clockOf(window.to)}`;
  if (!facts.zones || facts.zones.length === 0) {
    if (settings.unknownLocalTime === 'allow')
      return {
        allowed: true,
        window: null,
        note: 'Local time unknown: no time zone from the number or the contact',
      };
    return refuse(
      'unknown-local-time',
      'Not now: this contact’s local time is unknown (set their time zone on the contact)',
    );
  }
  const closed = facts.zones.find((z) => !inWindow(minuteOfDayIn(now, z), window));
  if (!closed) return { allowed: true, window, note: null };
  return refuse(
    'outside-hours',
    `Not now: it is ${spokenTimeIn(now, closed)} in ${zonePlace(closed)} (${label})`,
    nextOpening(now, facts.zones, window),
  );
}

/**
 * Whether one contact may be reached on one channel now, and if not, why, in words a rep understands.
 * - call: a valid number, not on the do-not-call list, not abandoned by a dialer in the last 72 hours, within
 *   calling hours where they are, and under their state's daily call limit;
 * - text: a valid number, not on the do-not-call list, no STOP from it, within calling hours;
 * - express consent (calls and texts) lifts the federal hours only: never do-not-call, STOP, a state's rules or the
 *   user's own window;
 * - prerecorded (a voicemail drop on a call already answered): a valid number, not on the do-not-call list,
 *   within calling hours, and the contact's express consent on record (PRERECORDED_MESSAGE_RULE); the call's own
 *   limits (the 72-hour hold, a state's daily count) were applied when it was placed;
 * - campaign e-mail: an address that has not unsubscribed; a one-off e-mail: an address.
 */
export function decideReach(
  channel: ReachChannel,
  facts: ReachFacts,
  settings: ReachSettings,
  now: Date,
): ReachDecision {
  if (channel === 'email' || channel === 'campaign-email') {
    if (!facts.email?.trim()) return refuse('no-email', 'No e-mail address');
    if (channel === 'campaign-email' && facts.unsubscribedAt)
      return refuse(
        'unsubscribed',
        `Unsubscribed from your e-mails on ${dateIn(facts.unsubscribedAt, settings.timeZone)}`,
      );
    return { allowed: true, window: null, note: null };
  }
  if (!facts.phoneE164) return refuse('no-phone', 'No phone number');
  if (facts.phoneValid === false && settings.unknownLocalTime === 'block')
    return refuse('invalid-phone', `Not a valid phone number: ${facts.phoneE164}`);
  if (facts.doNotCallSince)
    return refuse(
      'do-not-call',
      `On your do-not-call list since ${dateIn(facts.doNotCallSince, settings.timeZone)}`,
    );
  if (channel === 'text' && facts.textOptOut)
    return refuse(
      'texted-stop',
      `Texted ${facts.textOptOut.keyword} on ${dateIn(facts.textOptOut.at, settings.timeZone)}`,
    );
  if (channel === 'call' && facts.abandonedAt) {
    const free = new Date(facts.abandonedAt.getTime() + ABANDONED_REDIAL_HOLD.ms);
    if (free > now)
      return refuse(
        'abandoned',
        `Abandoned call on ${dateIn(facts.abandonedAt, settings.timeZone)}: not dialled again before ${spokenTimeIn(free, settings.timeZone)} on ${dateIn(free, settings.timeZone)}`,
        free,
      );
  }
  const hours = hoursDecision(facts, settings, now);
  if (!hours.allowed) return hours;
  const rule = facts.state ? STATE_RULES[facts.state] : undefined;
  if (channel === 'call' && rule?.maxCallsPer24h !== undefined && facts.callsLast24h >= rule.maxCallsPer24h)
    return refuse('call-limit', `${facts.callsLast24h} calls in the last 24 h (${rule.name} limit)`);
  if (channel === 'prerecorded' && !facts.expressConsent)
    return refuse('no-prerecorded-consent', PRERECORDED_MESSAGE_RULE.refusal);
  if (facts.expressConsent) {
    const given = `Express consent given ${usDay(facts.expressConsent.givenOn)} (${facts.expressConsent.source})`;
    return { ...hours, note: hours.note ? `${given}; ${hours.note}` : given };
  }
  return hours;
}

/** A contact's local time, as the contact page shows it ('Local time 7:42 am, America/Denver'), or null. */
export function localTimeLine(zones: string[] | null, now: Date): string | null {
  if (!zones || zones.length === 0) return null;
  return zones.map((z) => `${spokenTimeIn(now, z)}, ${z}`).join(' · ');
}
