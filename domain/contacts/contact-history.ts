/**
 * Contact history (decision 000: written by the server for every update that changes a field, in
 * the same transaction). Values are compared as stored; tags as lists.
 */
export const HISTORY_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'website',
  'title',
  'notes',
  'status',
  'tags',
  'timeZone',
  'state',
] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];
type Value = string | string[] | null | undefined;

/** What one update changed: the history entry it writes. */
export type ContactDiff = {
  changedFields: HistoryField[];
  previousValues: Record<string, Value>;
  newValues: Record<string, Value>;
};

export function diffContact(
  previous: Partial<Record<HistoryField, Value>>,
  next: Partial<Record<HistoryField, Value>>,
): ContactDiff | null {
  const changedFields: HistoryField[] = [];
  const previousValues: Record<string, Value> = {};
  const newValues: Record<string, Value> = {};
  for (const field of HISTORY_FIELDS) {
    if (!(field in next)) continue;
    const before = normalise(previous[field]);
    const after = normalise(next[field]);
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    changedFields.push(field);
    previousValues[field] = before;
    newValues[field] = after;
  }
  return changedFields.length > 0 ? { changedFields, previousValues, newValues } : null;
}

function normalise(v: Value): Value {
  if (v === undefined || v === '') return null;
  return v;
}

/** Field names in title case for the history card: firstName → First Name. */
export function titleCaseField(field: string): string {
  const spaced = field.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced
    .split(' ')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** A value as the history card shows it: lists joined, missing values as 'empty'. */
export function historyValue(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'empty';
  if (Array.isArray(v)) return v.length ? v.join(', ') : 'empty';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
