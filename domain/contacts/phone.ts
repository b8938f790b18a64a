/**
 * Phone numbers (decision 000 "Phone normalisation"). One rule for everything that
 * calls, searches, de-duplicates or checks do-not-call: keep the digits; 10 digits get +1; 11 digits starting
 * with 1 get +; anything else gets +. The number as typed is stored beside its normalised form.
 */
export function phoneDigits(raw: string): string {
  return raw.replace(/\D/g, '');
}

export function normalizePhone(raw: string | null | undefined): string | null {
  const digits = phoneDigits(raw ?? '');
  if (digits.length === 0) return null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return `+${digits}`;
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
