/**
 * The messages between the app and its pop-out dialer (decision 000 "pop-out session"): the
 * opener sends contact ids to add to the window's queue; the window says when it closes. No session or token ever
 * travels in a message: the window is same-origin and signed in by the app's cookie.
 */
export const UPDATE_CONTACTS = 'update-contacts';
export const DIALER_WINDOW_CLOSED = 'dialer-window-closed';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UpdateContactsMessage = { type: typeof UPDATE_CONTACTS; contactIds: string[] };

/** Only a well-formed update-contacts message is acted on: an array of at most 10,000 contact ids. */
export function isUpdateContactsMessage(data: unknown): data is UpdateContactsMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, contactIds } = data as { type?: unknown; contactIds?: unknown };
  return (
    type === UPDATE_CONTACTS &&
    Array.isArray(contactIds) &&
    contactIds.length > 0 &&
    contactIds.length <= 10_000 &&
    contactIds.every((id) => typeof id === 'string' && UUID.test(id))
  );
}

/** Opens (or focuses) the pop-out dialer on a queue; the window object, or null when the browser blocked it. */
export function openDialerWindow(queueId: string | null, simple = false): Window | null {
  const path = simple ? '/simple-dialer-window' : '/dialer-window';
  const query = queueId ? `?queue=${encodeURIComponent(queueId)}` : '';
  return window.open(`${path}${query}`, 'callcrm-dialer', 'popup,width=440,height=760');
}
