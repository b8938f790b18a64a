/**
 * When a person may be called or texted, as data with its legal source. Windows are minutes of the day in the
 * recipient's local time, from (inclusive) to (exclusive). A rule added here applies to every channel the gate
 * covers; a stricter state rule narrows the default, never widens it.
 */

export type CallingWindow = { from: number; to: number };

export type StateRule = {
  name: string;
  /** The state's own window, where stricter than the default. */
  window?: CallingWindow;
  /** At most this many sales calls to one person in any 24 hours. */
  maxCallsPer24h?: number;
  source: string;
};

/** US federal rule: no telephone solicitation before 8 am or after 9 pm at the called party's location; texts count as calls. */
export const DEFAULT_CALLING_WINDOW: CallingWindow = { from: 8 * 60, to: 21 * 60 };
export const DEFAULT_WINDOW_SOURCE = '47 CFR 64.1200(c)(1)';

/**
 * A person a dialer abandoned (they answered and nobody was free to take them) is not dialled again for 72 hours.
 * Ofcom's persistent-misuse policy (UK) requires it; we follow it everywhere, as it costs little.
 */
export const ABANDONED_REDIAL_HOLD = {
  ms: 72 * 3600_000,
  source:
    'Ofcom, Revised statement of policy on the persistent misuse of an electronic communications network or service (2016), A1.78',
} as const;

/**
 * A call that plays a prerecorded message (a voicemail drop) needs the called person's prior express consent, and
 * for telemarketing their prior express written consent, whether the number is a mobile or a residential line.
 * We cannot tell a sales call from another, nor a mobile from a landline, so we ask for the consent in every case:
 * the contact's express consent as the user recorded it (its day and where it was given).
 */
export const PRERECORDED_MESSAGE_RULE = {
  source: '47 CFR 64.1200(a)(2) and (a)(3)',
  refusal:
    'No voicemail drop: a prerecorded message needs the contact’s prior express consent (47 CFR 64.1200(a)(2) and (a)(3)). Record their consent on the contact first.',
} as const;

/** Stricter rules by the recipient's US state (two-letter code). */
export const STATE_RULES: Record<string, StateRule> = {
  FL: {
    name: 'Florida',
    window: { from: 8 * 60, to: 20 * 60 },
    maxCallsPer24h: 3,
    source: 'Fla. Stat. 501.616(6)',
  },
  OK: {
    name: 'Oklahoma',
    window: { from: 8 * 60, to: 20 * 60 },
    maxCallsPer24h: 3,
    source: 'Okla. Stat. tit. 15, sec. 775C.4',
  },
  WA: {
    name: 'Washington',
    window: { from: 8 * 60, to: 20 * 60 },
    source: 'RCW 80.36.390(2)',
  },
};

/** The two-letter codes of the US states and DC, by the name Google's phone geocoding data uses for them. */
export const US_STATES: Record<string, string> = {
  Alabama: 'AL',
  Alaska: 'AK',
  Arizona: 'AZ',
  Arkansas: 'AR',
  California: 'CA',
  Colorado: 'CO',
  Connecticut: 'CT',
  Delaware: 'DE',
  'Washington D.C.': 'DC',
  Florida: 'FL',
  Georgia: 'GA',
  Hawaii: 'HI',
  Idaho: 'ID',
  Illinois: 'IL',
  Indiana: 'IN',
  Iowa: 'IA',
  Kansas: 'KS',
  Kentucky: 'KY',
  Louisiana: 'LA',
  Maine: 'ME',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Minnesota: 'MN',
  Mississippi: 'MS',
  Missouri: 'MO',
  Montana: 'MT',
  Nebraska: 'NE',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  'New Jersey': 'NJ',
  'New Mexico': 'NM',
  'New York': 'NY',
  'North Carolina': 'NC',
  'North Dakota': 'ND',
  Ohio: 'OH',
  Oklahoma: 'OK',
  Oregon: 'OR',
  Pennsylvania: 'PA',
  'Rhode Island': 'RI',
  'South Carolina': 'SC',
  'South Dakota': 'SD',
  Tennessee: 'TN',
  Texas: 'TX',
  Utah: 'UT',
  Vermont: 'VT',
  Virginia: 'VA',
  'Washington State': 'WA',
  'West Virginia': 'WV',
  Wisconsin: 'WI',
  Wyoming: 'WY',
};

const STATE_CODES = new Set(Object.values(US_STATES));

/** A state as a person or a file writes it ('fl', 'Florida', 'Washington') → its code, or null. */
export function stateCode(raw: string | null | undefined): string | null {
  const text = raw?.trim() ?? '';
  if (!text) return null;
  if (STATE_CODES.has(text.toUpperCase())) return text.toUpperCase();
  const lower = text.toLowerCase();
  if (lower === 'washington') return 'WA';
  for (const [name, code] of Object.entries(US_STATES)) if (name.toLowerCase() === lower) return code;
  return null;
}

/** The state of a geocode ('Colorado', 'Denver, CO', 'Washington State'), or null (a province, a country). */
export function stateOfGeocode(geocode: string | null): string | null {
  if (!geocode) return null;
  const suffix = /, ([A-Z]{2})$/.exec(geocode)?.[1];
  if (suffix && STATE_CODES.has(suffix)) return suffix;
  return US_STATES[geocode] ?? null;
}

/**
 * Prior express invitation or permission takes a call out of the federal rule: the hours of 47 CFR 64.1200(c)(1)
 * bind telephone solicitations, and a call to a person with their prior express invitation or permission is not one
 * (64.1200(f)(15)). State rules stay: their exceptions differ from state to state, so the data keeps them whole.
 */
export const EXPRESS_CONSENT_SOURCE = '47 CFR 64.1200(f)(15)';

/**
 * The window a contact in this state may be reached in, narrowed by the user's own (never widened). With the
 * contact's express consent the federal window falls away, the state's and the user's stay; null: no window at all.
 */
export function windowFor(
  state: string | null,
  narrowed?: CallingWindow | null,
  expressConsent = false,
): CallingWindow | null {
  const rule = state ? STATE_RULES[state]?.window : undefined;
  let window: CallingWindow | null = expressConsent ? null : DEFAULT_CALLING_WINDOW;
  for (const w of [rule, narrowed])
    if (w) window = window ? { from: Math.max(window.from, w.from), to: Math.min(window.to, w.to) } : w;
  return window;
}
