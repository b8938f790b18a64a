import { useState } from 'react';
import type { ContactListItem } from '#domain/contacts/contact-list.schema.ts';

/** Where the walk keeps the contacts done in this tab, so a reload resumes it. */
export const COMPLETED_KEY = 'dialer-completed';

const readCompleted = () => {
  try {
    return new Set<string>(JSON.parse(sessionStorage.getItem(COMPLETED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set<string>();
  }
};

/**
 * The browser dialer's walk through its contacts (spec part 2 §2.5, §4.4): the contacts with a phone that are not
 * done yet, in the order given (least recently called first), and the next of them. A contact is done when its
 * disposition is saved; the walk then moves to the next, and reports when none remain.
 */
export function useDialerWalk(contacts: readonly ContactListItem[] | undefined) {
  const [completed, setCompleted] = useState(readCompleted);
  // Only contacts with a phone can be called (spec part 2 §5.4): they make the queue.
  const remaining = (contacts ?? []).filter((c) => c.phone && !completed.has(c.id));
  return {
    remaining,
    next: remaining[0],
    isDone: (contactId: string) => completed.has(contactId),
    /** Marks a contact done; whether that was the last one. */
    complete: (contactId: string): { queueComplete: boolean } => {
      const next = new Set(completed).add(contactId);
      setCompleted(next);
      sessionStorage.setItem(COMPLETED_KEY, JSON.stringify([...next]));
      return { queueComplete: !(contacts ?? []).some((c) => c.phone && !next.has(c.id)) };
    },
  };
}
