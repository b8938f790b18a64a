import { describe, expect, it } from 'vitest';
import { chooseCallee, type CalleeCandidate } from './incoming-call.ts';

const day = (d: number) => new Date(Date.UTC(2026, 10, d));
const candidate = (userId: string, over: Partial<CalleeCandidate> = {}): CalleeCandidate => ({
  userId,
  lastCalledCallerAt: null,
  hasCallerAsContact: false,
  numberAddedAt: day(1),
  ...over,
});

describe('who takes a call to a shared number', () => {
  it.each<[string, CalleeCandidate[], string | null]>([
    ['nobody has the number', [], null],
    ['one user has it', [candidate('a')], 'a'],
    [
      'the caller calls back the user who last called them',
      [candidate('a', { lastCalledCallerAt: day(3) }), candidate('b', { lastCalledCallerAt: day(5) })],
      'b',
    ],
    [
      'a call back beats having the caller as a contact',
      [candidate('a', { hasCallerAsContact: true }), candidate('b', { lastCalledCallerAt: day(2) })],
      'b',
    ],
    [
      'with no call, the user who has the caller as a contact',
      [
        candidate('a', { numberAddedAt: day(1) }),
        candidate('b', { hasCallerAsContact: true, numberAddedAt: day(9) }),
      ],
      'b',
    ],
    [
      'else the user who added the number first',
      [candidate('a', { numberAddedAt: day(4) }), candidate('b', { numberAddedAt: day(2) })],
      'b',
    ],
    [
      "a user who called from the instance's number, before one who owns none of it",
      [candidate('a', { numberAddedAt: null, lastCalledCallerAt: day(2) }), candidate('b')],
      'a',
    ],
    ['a tie is broken the same way every time', [candidate('b'), candidate('a')], 'a'],
  ])('%s', (_, candidates, expected) => {
    expect(chooseCallee(candidates)).toBe(expected);
    expect(chooseCallee([...candidates].reverse())).toBe(expected);
  });
});
