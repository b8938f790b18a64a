import { MAX_SELECTED_IDS } from '#domain/contacts/bulk-selection.schema.ts';

/**
 * The messages between the app and its pop-out dialer (decision 000 "pop-out session"): the
 * opener sends contact ids to add to the window's queue; the window says when it closes. No session or token ever
 * travels in a message: the window is same-origin and signed in by the app's cookie.
 */
export const UPDATE_CONTACTS = 'update-contacts';
export const DIALER_WINDOW_CLOSED = 'dialer-window-closed';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UpdateContactsMessage = { type: typeof UPDATE_CONTACTS; contactIds: string[] };

/** Only a well-formed update-contacts message is acted on: an array of at most MAX_SELECTED_IDS contact ids (a ticked selection). */
export function isUpdateContactsMessage(data: unknown): data is UpdateContactsMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, contactIds } = data as { type?: unknown; contactIds?: unknown };
  return (
    type === UPDATE_CONTACTS &&
    Array.isArray(contactIds) &&
    contactIds.length > 0 &&
    contactIds.length <= MAX_SELECTED_IDS &&
    contactIds.every((id) => typeof id === 'string' && UUID.test(id))
  );
}

/** The pop-out this tab opened, while it is open. */
let popOut: Window | null = null;

/** Opens (or focuses) the pop-out dialer on a queue; the window object, or null when the browser blocked it. */
export function openDialerWindow(queueId: string | null, simple = false): Window | null {
  const path = simple ? '/simple-dialer-window' : '/dialer-window';
  const query = queueId ? `?queue=${encodeURIComponent(queueId)}` : '';
  popOut = window.open(`${path}${query}`, 'callcrm-dialer', 'popup,width=440,height=760');
  return popOut;
}

/** Whether this tab has a pop-out dialer open. */
export const isDialerWindowOpen = () => popOut !== null && !popOut.closed;

/**
 * Sends contacts to the open pop-out dialer (an update-contacts message), which adds them to the queue it is
 * calling. False when no pop-out is open.
 */
export function sendContactsToDialerWindow(contactIds: string[]): boolean {
  if (!popOut || popOut.closed) return false;
  const message: UpdateContactsMessage = { type: UPDATE_CONTACTS, contactIds };
  popOut.postMessage(message, window.location.origin);
  return true;
}
