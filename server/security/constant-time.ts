import { timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (signatures, tokens) are equal, in time that does not depend on where they differ. Compared
 * as bytes: a string of the right length in characters may be longer in bytes (non-ASCII), which timingSafeEqual
 * refuses by throwing.
 */
export function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
