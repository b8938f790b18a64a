import type { CallStatus } from '#domain/calls/call-status.ts';

/** How a call's state reads on screen, in the call panel and the dialer. */
export const STATUS_TEXT: Record<CallStatus, string> = {
  queued: 'Calling…',
  initiated: 'Calling…',
  ringing: 'Ringing…',
  'in-progress': 'Connected',
  completed: 'Call ended',
  busy: 'Busy',
  'no-answer': 'No answer',
  failed: 'Call failed',
  canceled: 'Canceled',
};
