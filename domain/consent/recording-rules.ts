/**
 * Whether a recorded call needs a disclosure first, as data with its legal source (decision 030). Most US states
 * let one party to a call record it; these require every party's consent, so the called person hears that the call
 * is recorded before anyone speaks (staying on the line after the notice is the consent courts accept).
 */
export type AllPartyState = { name: string; source: string };

export const ALL_PARTY_CONSENT_STATES: Record<string, AllPartyState> = {
  CA: { name: 'California', source: 'Cal. Penal Code sec. 632' },
  DE: { name: 'Delaware', source: 'Del. Code tit. 11, sec. 1335(a)(4)' },
  FL: { name: 'Florida', source: 'Fla. Stat. sec. 934.03(2)(d)' },
  IL: { name: 'Illinois', source: '720 ILCS 5/14-2(a)' },
  MD: { name: 'Maryland', source: 'Md. Code, Cts. & Jud. Proc. sec. 10-402(c)(3)' },
  MA: { name: 'Massachusetts', source: 'Mass. Gen. Laws ch. 272, sec. 99' },
  MT: { name: 'Montana', source: 'Mont. Code Ann. sec. 45-8-213(1)(c)' },
  NV: { name: 'Nevada', source: 'Nev. Rev. Stat. sec. 200.620 (Lane v. Allstate, 1998)' },
  NH: { name: 'New Hampshire', source: 'N.H. Rev. Stat. sec. 570-A:2' },
  PA: { name: 'Pennsylvania', source: '18 Pa. Cons. Stat. sec. 5704(4)' },
  WA: { name: 'Washington', source: 'Wash. Rev. Code sec. 9.73.030(1)(a)' },
};

/** What the called person hears first on a recorded call that needs a disclosure. */
export const RECORDING_DISCLOSURE = 'This call is recorded.';

export type RecordingDisclosure = {
  disclose: boolean;
  /** Why, in words the rep reads: the state and its rule, or that one party's consent is enough. */
  reason: string;
  source: string | null;
};

/**
 * Whether a recorded call must start with the disclosure: yes when either end is in an all-party-consent state (the
 * stricter law applies to a call across states), and when the called person's state is unknown (a number from
 * abroad, or one whose area code says nothing), since one-party consent cannot be shown there. Pure: the consent
 * gate gives the states (the contact's own, else their number's area code; the caller ID's for the caller).
 */
export function recordingDisclosure(states: {
  callee: string | null;
  caller: string | null;
}): RecordingDisclosure {
  for (const [who, state] of [
    ['The contact is in', states.callee],
    ['Your number is in', states.caller],
  ] as const) {
    const rule = state ? ALL_PARTY_CONSENT_STATES[state] : undefined;
    if (rule)
      return {
        disclose: true,
        reason: `${who} ${rule.name}, where every party must consent to a recording`,
        source: rule.source,
      };
  }
  if (!states.callee)
    return {
      disclose: true,
      reason: "The contact's state is not known, so one-party consent cannot be relied on",
      source: null,
    };
  return {
    disclose: false,
    reason: 'One-party consent: your consent to record is enough',
    source: '18 U.S.C. sec. 2511(2)(d)',
  };
}
