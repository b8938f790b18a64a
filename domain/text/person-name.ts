/** A full name as one text, split at its first space: 'Ada King Lovelace' is Ada, King Lovelace. */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}
