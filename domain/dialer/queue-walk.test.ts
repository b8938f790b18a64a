import { describe, expect, it } from 'vitest';
import { queueProgress, queueStatus, skipReasonFor } from './queue-walk.ts';

describe('which contacts of a queue are skipped', () => {
  it.each([
    [{ phone: '+15550100017', onDoNotCallList: false }, null],
    [{ phone: null, onDoNotCallList: false }, 'no-phone'],
    [{ phone: '   ', onDoNotCallList: false }, 'no-phone'],
    [{ phone: '+15550100017', onDoNotCallList: true }, 'do-not-call'],
    [{ phone: null, onDoNotCallList: true }, 'no-phone'],
  ] as const)('%j → %s', (contact, reason) => {
    expect(skipReasonFor(contact)).toBe(reason);
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
