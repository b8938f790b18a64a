import { describe, expect, it } from 'vitest';
import { queueProgress, queueStatus, skipReasonFor, waitingText } from './queue-walk.ts';

describe('what the walk does with a contact the consent gate refused', () => {
  it.each([
    ['no-phone', 'no-phone'],
    ['invalid-phone', 'invalid-phone'],
    ['do-not-call', 'do-not-call'],
    ['outside-hours', null],
    ['call-limit', null],
    ['unknown-local-time', null],
    ['abandoned', null],
  ] as const)('%s → completed as %s (null: left open for later)', (code, reason) => {
    expect(skipReasonFor(code)).toBe(reason);
  });
});

describe("a queue's status tells the truth", () => {
  const filling = { asked: 5000, added: 1000, error: null };
  it.each([
    ['nothing done', { total: 10, completed: 0 }, 'Not Started'],
    ['some done', { total: 10, completed: 3 }, 'In Progress'],
    ['all done', { total: 10, completed: 10 }, 'Completed'],
    ['an empty queue', { total: 0, completed: 0 }, 'Not Started'],
    ['filling, not started', { total: 10, completed: 0, filling }, 'Adding Contacts'],
    ['filling, started', { total: 10, completed: 4, filling }, 'In Progress'],
    ['filling, all current ones done: more are coming', { total: 10, completed: 10, filling }, 'In Progress'],
  ] as const)('%s: %s', (_what, queue, status) => {
    expect(queueStatus(queue as Parameters<typeof queueStatus>[0])).toBe(status);
  });

  it('counts what is left and how far it has come', () => {
    expect(queueProgress({ total: 3, completed: 1 })).toEqual({ remaining: 2, percent: 33 });
    expect(queueProgress({ total: 0, completed: 0 })).toEqual({ remaining: 0, percent: 0 });
    // Members removed after they were completed can leave more completed than there are: never past 100 %.
    expect(queueProgress({ total: 2, completed: 5 })).toEqual({ remaining: 0, percent: 100 });
  });
});

describe('what the dialer says when the contacts left must wait', () => {
  it.each([
    [
      {
        count: 1,
        reason: 'Not now: it is 7:42 am in Denver (calling hours 8:00–21:00)',
        nextAt: '2026-11-25T15:00:00.000Z',
      },
      '1 contact is waiting: Not now: it is 7:42 am in Denver (calling hours 8:00–21:00). The next may be called at 15:00.',
    ],
    [
      { count: 4, reason: '3 calls in the last 24 h (Florida limit)', nextAt: null },
      '4 contacts are waiting: 3 calls in the last 24 h (Florida limit).',
    ],
    [{ count: 10_000, reason: 'Not now', nextAt: null }, '10,000 or more contacts are waiting: Not now.'],
  ])('%j', (waiting, text) => {
    expect(waitingText(waiting, (iso) => iso.slice(11, 16))).toBe(text);
  });
});
