import { describe, expect, it } from 'vitest';
import { deliverableNow, nextAttemptAt, nextDueAt, shouldDisable } from './webhook-delivery.ts';

const at = (iso: string) => new Date(iso);
const EVENT = at('2026-11-28T10:00:00Z');

describe('nextAttemptAt', () => {
  it.each([
    [1, '2026-11-28T10:00:00Z', '2026-11-28T10:00:05.000Z'],
    [2, '2026-11-28T10:00:05Z', '2026-11-28T10:05:05.000Z'],
    [3, '2026-11-28T10:05:05Z', '2026-11-28T10:35:05.000Z'],
    [4, '2026-11-28T10:35:05Z', '2026-11-28T12:35:05.000Z'],
    [5, '2026-11-28T12:35:05Z', '2026-11-28T17:35:05.000Z'],
    [6, '2026-11-28T17:35:05Z', '2026-11-29T03:35:05.000Z'],
    // The seventh waits 10 hours again, but no later than 24 hours after the event.
    [7, '2026-11-29T03:35:05Z', '2026-11-29T10:00:00.000Z'],
    [8, '2026-11-29T10:00:00Z', null],
    [0, '2026-11-28T10:00:00Z', null],
  ])('after %i failed attempts, the last at %s → %s', (attempts, failed, next) => {
    expect(nextAttemptAt(EVENT, attempts, at(failed))?.toISOString() ?? null).toBe(next);
  });
});

describe('shouldDisable', () => {
  it.each([
    [null, '2026-12-30T00:00:00Z', false],
    ['2026-11-28T10:00:00Z', '2026-12-01T09:59:59Z', false],
    ['2026-11-28T10:00:00Z', '2026-12-01T10:00:00Z', true],
  ])('failing since %s, at %s → %s', (since, now, disable) => {
    expect(shouldDisable(since ? at(since) : null, at(now))).toBe(disable);
  });
});

describe('deliverableNow', () => {
  const now = at('2026-11-28T10:00:00Z');
  const past = at('2026-11-28T09:59:00Z');
  const later = at('2026-11-28T10:05:00Z');
  it('keeps each contact’s events in order and lets others go', () => {
    const ready = deliverableNow(
      [
        { id: 'a2', orderKey: 'ada', sequence: 3, dueAt: past },
        { id: 'a1', orderKey: 'ada', sequence: 1, dueAt: past },
        { id: 'b1', orderKey: 'bob', sequence: 2, dueAt: later },
        { id: 'b2', orderKey: 'bob', sequence: 4, dueAt: past },
        { id: 'x', orderKey: null, sequence: 5, dueAt: past },
        { id: 'y', orderKey: null, sequence: 6, dueAt: later },
      ],
      now,
    );
    // Ada's first goes, her second waits for it; Bob's first is not due, so his second waits too.
    expect(ready.map((d) => d.id)).toEqual(['a1', 'x']);
  });
});

describe('nextDueAt', () => {
  it('is the soonest of each contact’s earliest, not a later event waiting behind one', () => {
    const first = at('2026-11-28T10:05:00Z');
    expect(
      nextDueAt([
        { id: 'a1', orderKey: 'ada', sequence: 1, dueAt: first },
        // Due long ago, but waiting for a1.
        { id: 'a2', orderKey: 'ada', sequence: 2, dueAt: at('2026-11-28T09:00:00Z') },
        { id: 'x', orderKey: null, sequence: 3, dueAt: at('2026-11-28T11:00:00Z') },
      ]),
    ).toEqual(first);
    expect(nextDueAt([])).toBeNull();
  });
});
