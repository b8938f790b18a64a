/**
 * Local presence (decision 027): with several caller IDs, a call goes out from the one nearest the person called, as
 * people answer a local number more often than a distant one. Nearest means, in this order: the same area code, the
 * same US state, a time zone in common, else the user's default. Pure: the server supplies where each number is.
 */

/** Where a number is, as the phone-number data can tell: each part null when it cannot. */
export type NumberPlace = {
  /** A North American number's area code ('303'); null for other countries. */
  areaCode: string | null;
  /** The US state of the area code ('CO'). */
  state: string | null;
  /** The IANA zones the number's prefix is in (several where an area code spans zones). */
  zones: string[] | null;
  /** The place to show: the city when the data names one for the prefix, else the state or region ('Denver', 'Colorado'). */
  name: string | null;
};

export const LOCAL_PRESENCE_MATCHES = ['area code', 'state', 'time zone', 'default'] as const;
export type LocalPresenceMatch = (typeof LOCAL_PRESENCE_MATCHES)[number];

export type PlacedCallerId = { e164: string; isDefault: boolean; place: NumberPlace };

function matches(level: Exclude<LocalPresenceMatch, 'default'>, to: NumberPlace, from: NumberPlace): boolean {
  switch (level) {
    case 'area code':
      return to.areaCode !== null && to.areaCode === from.areaCode;
    case 'state':
      return to.state !== null && to.state === from.state;
    case 'time zone':
      return (to.zones ?? []).some((zone) => (from.zones ?? []).includes(zone));
  }
}

/**
 * The caller ID nearest the number called, and how near: the first level some caller ID matches wins; among several
 * at that level the default, else the first. Null with no caller ID at all (or none marked default and none near).
 */
export function nearestCallerId<T extends PlacedCallerId>(
  to: NumberPlace,
  callerIds: readonly T[],
): { callerId: T; match: LocalPresenceMatch } | null {
  for (const level of LOCAL_PRESENCE_MATCHES) {
    const near = callerIds.filter((c) => (level === 'default' ? c.isDefault : matches(level, to, c.place)));
    const chosen = near.find((c) => c.isDefault) ?? near[0];
    if (chosen) return { callerId: chosen, match: level };
  }
  return null;
}
