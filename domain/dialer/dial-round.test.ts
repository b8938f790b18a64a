import { describe, expect, it } from 'vitest';
import {
  onAnswers,
  onLineEvent,
  pauseRound,
  roundSettled,
  type LineEvent,
  type Round,
} from './dial-round.ts';

const fresh = (n = 3): Round => ({
  lines: Object.fromEntries(Array.from({ length: n }, (_, i) => [`L${i + 1}`, 'ringing'])),
  connected: null,
});
const play = (round: Round, events: LineEvent[]) =>
  events.reduce(
    (acc, e) => {
      const { round: next, actions } = onLineEvent(acc.round, e);
      return { round: next, actions: [...acc.actions, ...actions] };
    },
    { round, actions: [] as ReturnType<typeof onLineEvent>['actions'] },
  );

describe('a round of parallel dialing', () => {
  it('releases the lines still ringing at the first answer, then connects the person', () => {
    const { round, actions } = play(fresh(), [
      { line: 'L2', kind: 'status', status: 'in-progress' },
      { line: 'L2', kind: 'detected', answeredBy: 'human' },
    ]);
    expect(round.connected).toBe('L2');
    expect(actions).toEqual([
      { do: 'hang-up', line: 'L1', then: 'release' },
      { do: 'hang-up', line: 'L3', then: 'release' },
      { do: 'connect', line: 'L2' },
    ]);
    expect(roundSettled(round)).toBe(true);
  });

  it('abandons a second person who answered at the same moment, before the release reached them, with the message', () => {
    const both = onAnswers(fresh(2), ['L1', 'L2']);
    expect(both.actions).toEqual([]);
    const { round, actions } = play(both.round, [
      { line: 'L1', kind: 'detected', answeredBy: 'human' },
      { line: 'L2', kind: 'detected', answeredBy: 'human' },
    ]);
    expect(round.lines).toEqual({ L1: 'connected', L2: 'abandoned' });
    expect(actions.slice(1)).toEqual([
      { do: 'hang-up', line: 'L2', then: 'abandon-message' },
      { do: 'complete', line: 'L2' },
    ]);
  });

  it('hangs up on a machine and records Voicemail; the lines its answer released are back in the queue', () => {
    const { round, actions } = play(fresh(), [
      { line: 'L1', kind: 'status', status: 'in-progress' },
      { line: 'L1', kind: 'detected', answeredBy: 'machine' },
    ]);
    expect(round.lines).toEqual({ L1: 'machine', L2: 'released', L3: 'released' });
    expect(actions).toEqual([
      { do: 'hang-up', line: 'L2', then: 'release' },
      { do: 'hang-up', line: 'L3', then: 'release' },
      { do: 'hang-up', line: 'L1', then: 'dispose' },
      { do: 'dispose', line: 'L1', disposition: 'voicemail' },
      { do: 'complete', line: 'L1' },
    ]);
    expect(roundSettled(round)).toBe(true);
  });

  it.each([
    ['busy', 'busy'],
    ['no-answer', 'no-answer'],
    ['failed', 'no-answer'],
  ] as const)('records a line that ends %s as %s and completes its contact', (status, disposition) => {
    const { actions } = play(fresh(1), [{ line: 'L1', kind: 'status', status }]);
    expect(actions).toEqual([
      { do: 'dispose', line: 'L1', disposition },
      { do: 'complete', line: 'L1' },
    ]);
  });

  it('treats "unknown" as a person: nobody is hung up on because detection could not tell', () => {
    const { round } = play(fresh(2), [{ line: 'L2', kind: 'detected', answeredBy: 'unknown' }]);
    expect(round.connected).toBe('L2');
  });

  it('ignores repeated and late events: a released line that ends, a detection after the end, an unknown line', () => {
    const connected = play(fresh(2), [{ line: 'L1', kind: 'detected', answeredBy: 'human' }]).round;
    for (const event of [
      { line: 'L2', kind: 'status', status: 'canceled' },
      { line: 'L2', kind: 'detected', answeredBy: 'human' },
      { line: 'L1', kind: 'detected', answeredBy: 'machine' },
      { line: 'L9', kind: 'status', status: 'busy' },
    ] as LineEvent[])
      expect(onLineEvent(connected, event).actions).toEqual([]);
  });
});

describe('a line we ended before anyone was reached', () => {
  it.each(['ringing', 'answered'] as const)(
    'a %s line canceled (paused, or its server died) goes back to the queue, neither dispositioned nor completed',
    (state) => {
      const round: Round = { lines: { L1: state, L2: 'ringing' }, connected: null };
      const { round: after, actions } = onLineEvent(round, {
        line: 'L1',
        kind: 'status',
        status: 'canceled',
      });
      expect(actions).toEqual([{ do: 'release', line: 'L1' }]);
      expect(after.lines.L1).toBe('released');
    },
  );

  it('a line that failed at the provider gets No Answer and is completed', () => {
    const { actions } = onLineEvent(fresh(1), { line: 'L1', kind: 'status', status: 'failed' });
    expect(actions).toEqual([
      { do: 'dispose', line: 'L1', disposition: 'no-answer' },
      { do: 'complete', line: 'L1' },
    ]);
  });
});

describe('a line answered as it was released', () => {
  it('counts as abandoned: a person was hung up on', () => {
    const { round, actions } = play(fresh(2), [
      { line: 'L1', kind: 'status', status: 'in-progress' },
      { line: 'L1', kind: 'detected', answeredBy: 'human' },
      // L2's answer reaches the round only after it was released.
      { line: 'L2', kind: 'status', status: 'in-progress' },
      { line: 'L2', kind: 'status', status: 'completed' },
    ]);
    expect(round.lines).toEqual({ L1: 'connected', L2: 'abandoned' });
    expect(actions).toEqual([
      { do: 'hang-up', line: 'L2', then: 'release' },
      { do: 'connect', line: 'L1' },
    ]);
  });
});

describe('pausing a round', () => {
  it('releases the lines still ringing and leaves an answered line to detection', () => {
    const { round: ringing, actions: released } = pauseRound(fresh(2));
    expect(released).toEqual([
      { do: 'hang-up', line: 'L1', then: 'release' },
      { do: 'hang-up', line: 'L2', then: 'release' },
    ]);
    expect(roundSettled(ringing)).toBe(true);
    const answered = play(fresh(3), [{ line: 'L1', kind: 'status', status: 'in-progress' }]).round;
    const { round, actions } = pauseRound(answered);
    expect(actions).toEqual([]);
    expect(roundSettled(round)).toBe(false);
    // The person who picked up is still connected once detection speaks.
    const after = onLineEvent(round, { line: 'L1', kind: 'detected', answeredBy: 'human' });
    expect(after.actions).toEqual([{ do: 'connect', line: 'L1' }]);
    expect(roundSettled(after.round)).toBe(true);
  });

  it('changes nothing in a settled round', () => {
    const settled = play(fresh(1), [{ line: 'L1', kind: 'status', status: 'busy' }]).round;
    expect(pauseRound(settled).actions).toEqual([]);
  });
});
