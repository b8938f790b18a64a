import { z } from 'zod';
import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';

/**
 * Phone numbers: one rule for everything that calls, searches, de-duplicates or checks consent. A number is read
 * with Google's numbering plan (libphonenumber-js) in the user's default country (a number written with + or 00 and
 * a country code is read as written); the number as typed is stored beside its E.164 form.
 */
export function phoneDigits(raw: string): string {
  return raw.replace(/\D/g, '');
}

/** The country a number without a country code is read in, unless the user chooses another. */
export const DEFAULT_PHONE_COUNTRY = 'US';

/** A country numbers without a country code are read in (Settings → Profile), as ISO 3166 two letters. */
export const PhoneCountrySchema = z
  .string()
  .refine((country): boolean => isSupportedCountry(country), 'Choose a country for phone numbers');

/** The countries the numbering plan knows, with their calling codes, for the Settings list. */
export function phoneCountries(): { code: string; callingCode: string }[] {
  return getCountries().map((code) => ({ code, callingCode: getCountryCallingCode(code) }));
}

export type ParsedPhone = { e164: string; valid: boolean; country: string | null };

/**
 * A number as the numbering plan reads it: its E.164 form and whether it is a real, diallable number there (a UK
 * '020 7946 0958' read in GB is +442079460958 and valid; read in the US it is not a number at all). Digits the plan
 * cannot read keep their digits behind a + and are not valid. Null when there are no digits.
 */
export function parsePhone(
  raw: string | null | undefined,
  country: string = DEFAULT_PHONE_COUNTRY,
): ParsedPhone | null {
  const text = (raw ?? '').trim();
  const digits = phoneDigits(text);
  if (digits.length === 0) return null;
  const international = text.startsWith('00') ? `+${text.slice(2)}` : text;
  const parsed = parsePhoneNumberFromString(international, country as CountryCode);
  if (parsed?.isPossible())
    return { e164: parsed.number, valid: parsed.isValid(), country: parsed.country ?? null };
  if (digits.length === 10) return { e164: `+1${digits}`, valid: false, country: null };
  if (digits.length === 11 && digits.startsWith('1'))
    return { e164: `+${digits}`, valid: false, country: null };
  return { e164: `+${digits}`, valid: false, country: null };
}

/** Digits with only the punctuation people write between them: no +, no letters, no extension. */
const PLAIN_NUMBER = /^[\d\s().-]+$/;

/**
 * The E.164 form alone (storing, matching, de-duplicating). A plain 10-digit number, or 11 digits after a 1, read in
 * the US is what parsePhone makes of it, written without building the parsed number: an import of a million rows
 * reads most of its numbers this way.
 */
export function normalizePhone(
  raw: string | null | undefined,
  country: string = DEFAULT_PHONE_COUNTRY,
): string | null {
  const text = (raw ?? '').trim();
  if (country === 'US' && PLAIN_NUMBER.test(text)) {
    const digits = phoneDigits(text);
    if (digits.length === 10) return `+1${digits}`;
    if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  }
  return parsePhone(text, country)?.e164 ?? null;
}

/** Display: 10 digits as (xxx) xxx-xxxx; 11 with a leading 1 as +1 (xxx) xxx-xxxx; else as typed. */
export function formatPhoneForDisplay(raw: string | null | undefined): string {
  if (!raw) return '';
  const digits = phoneDigits(raw);
  const local =
    digits.length === 10 ? digits : digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : null;
  if (!local) return raw;
  const formatted = `(${local.slice(0, 3)}) ${local.slice(3, 6)}-${local.slice(6)}`;
  return digits.length === 11 ? `+1 ${formatted}` : formatted;
}

/** Two numbers are different if their digit strings differ. */
export function isSamePhone(a: string, b: string): boolean {
  return phoneDigits(a) === phoneDigits(b);
}
