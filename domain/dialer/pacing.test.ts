import { describe, expect, it } from 'vitest';
import {
  abandonmentMessage,
  abandonmentRate,
  isAbandoned,
  lawfulCap,
  linesToDial,
  mayRedialAfterAbandon,
  type PacingFacts,
} from './pacing.ts';

const none = { liveAnswers: 0, abandoned: 0 };
/** A queue with plenty of live answers and none abandoned: the cap leaves room for five lines. */
const facts = (over: Partial<PacingFacts>): PacingFacts => ({
  mode: 'parallel',
  capPercent: null,
  last30Days: { liveAnswers: 1000, abandoned: 0 },
  last24Hours: { liveAnswers: 200, abandoned: 0 },
  recent: { dials: 100, liveAnswers: 30 },
  ...over,
});

describe('abandonment rate', () => {
  it.each([
    [{ liveAnswers: 0, abandoned: 0 }, null],
    [{ liveAnswers: 100, abandoned: 0 }, 0],
    [{ liveAnswers: 100, abandoned: 3 }, 3],
    [{ liveAnswers: 300, abandoned: 7 }, 2.3],
    [{ liveAnswers: 3, abandoned: 1 }, 33.3],
  ])('%j → %j %', (counts, expected) => {
    expect(abandonmentRate(counts)).toBe(expected);
  });
});

describe('the cap', () => {
  it.each([
    [null, 3],
    [undefined, 3],
    [2, 2],
    [0.5, 0.5],
    [3, 3],
    [5, 3],
    [0, 3],
    [-1, 3],
    [Number.NaN, 3],
  ])('a queue asking for %j gets %j %', (requested, expected) => {
    expect(lawfulCap(requested)).toBe(expected);
  });
});

describe('lines to dial', () => {
  it.each<[string, Partial<PacingFacts>, number]>([
    ['power mode rings one line', { mode: 'power' }, 1],
    ['30 % answer, room under the cap: three lines', {}, 3],
    ['20 % answer: five lines', { recent: { dials: 100, liveAnswers: 20 } }, 5],
    ['10 % answer: never more than five', { recent: { dials: 100, liveAnswers: 10 } }, 5],
    ['70 % answer: one line', { recent: { dials: 100, liveAnswers: 70 } }, 1],
    ['45 % answer: two lines', { recent: { dials: 100, liveAnswers: 45 } }, 2],
    ['fewer than 20 dials: two lines while learning', { recent: { dials: 19, liveAnswers: 1 } }, 2],
    ['no live answer yet: two lines', { recent: { dials: 40, liveAnswers: 0 } }, 2],
    ['a new queue: one line until live answers make room', { last30Days: none, last24Hours: none }, 1],
    ['a new day: one line, whatever the month did', { last24Hours: none }, 1],
    [
      '34 live answers today: room for one abandoned call, two lines',
      { last24Hours: { liveAnswers: 34, abandoned: 0 } },
      2,
    ],
    [
      '67 live answers today: room for two, three lines',
      { last24Hours: { liveAnswers: 67, abandoned: 0 } },
      3,
    ],
    ['at the cap over 30 days: one line', { last30Days: { liveAnswers: 100, abandoned: 3 } }, 1],
    ['over the cap in the last day only: one line', { last24Hours: { liveAnswers: 20, abandoned: 1 } }, 1],
    ['2.5 % of a thousand: still room for three', { last30Days: { liveAnswers: 1000, abandoned: 25 } }, 3],
    [
      "another rep's two lines still ringing take the room",
      { last24Hours: { liveAnswers: 67, abandoned: 0 }, undecidedLines: 2 },
      1,
    ],
    [
      "another rep's line ringing, room to spare",
      { last24Hours: { liveAnswers: 100, abandoned: 0 }, undecidedLines: 1 },
      3,
    ],
    ['a lower cap of 1 %: room for three at 200 answers', { capPercent: 1 }, 3],
    ['a lower cap of 1 %: two at 150', { capPercent: 1, last24Hours: { liveAnswers: 150, abandoned: 0 } }, 2],
    [
      'a cap above the law is the law: 3 % is the cap',
      { capPercent: 10, last30Days: { liveAnswers: 100, abandoned: 3 } },
      1,
    ],
  ])('%s', (_, over, lines) => {
    expect(linesToDial(facts(over)).lines).toBe(lines);
  });

  it('says why, in words a rep reads', () => {
    expect(linesToDial(facts({})).why).toBe('3 lines: 30 % of recent dials reach a person');
    expect(linesToDial(facts({ last24Hours: { liveAnswers: 34, abandoned: 0 } })).why).toBe(
      '2 lines: another needs 30 more live answers first, to stay under the 3 % cap (last 24 hours: 0 abandoned of 34)',
    );
    expect(linesToDial(facts({ last30Days: { liveAnswers: 100, abandoned: 3 } })).why).toBe(
      '1 line: another needs 32 more live answers first, to stay under the 3 % cap (last 30 days: 3 abandoned of 100)',
    );
    expect(linesToDial(facts({ last24Hours: none })).why).toBe(
      '1 line: another needs 32 more live answers first, to stay under the 3 % cap (last 24 hours: 0 abandoned of 0)',
    );
    expect(linesToDial(facts({ recent: { dials: 3, liveAnswers: 1 } })).why).toBe(
      '2 lines: too few dials yet to know the answer rate',
    );
  });

  it('keeps abandonment within the cap whatever the answers: every round answered by every line, 20,000 rounds', () => {
    // The worst case, round after round: all k lines answered by people, one put through, k − 1 abandoned.
    for (const capPercent of [3, 2, 1, 0.5]) {
      const month = { liveAnswers: 0, abandoned: 0 };
      let over = 0;
      let day = { liveAnswers: 0, abandoned: 0 };
      for (let round = 0; round < 20_000; round++) {
        if (round % 2_000 === 0) day = { liveAnswers: 0, abandoned: 0 };
        const recent = { dials: 100, liveAnswers: 10 + (round % 40) };
        const { lines } = linesToDial({
          mode: 'parallel',
          capPercent,
          last30Days: month,
          last24Hours: day,
          recent,
        });
        for (const window of [month, day]) {
          window.liveAnswers += lines;
          window.abandoned += lines - 1;
          if (window.abandoned * 100 > capPercent * window.liveAnswers + 1e-9) over++;
        }
      }
      expect(over).toBe(0);
      expect(month.abandoned).toBeGreaterThan(0);
    }
  });
});

describe('abandoned calls', () => {
  const answered = new Date('2026-11-27T10:00:00Z');
  it.each([
    [1_999, false],
    [2_000, true],
    [10_000, true],
  ])('a live answer untaken after %j ms is abandoned: %j', (ms, expected) => {
    expect(isAbandoned(answered, new Date(answered.getTime() + ms))).toBe(expected);
  });

  it.each([
    [null, true],
    [71.9, false],
    [72, true],
    [100, true],
  ])('a number abandoned %j hours ago may be dialled again: %j', (hours, expected) => {
    const now = new Date('2026-11-27T10:00:00Z');
    const at = hours === null ? null : new Date(now.getTime() - hours * 3600_000);
    expect(mayRedialAfterAbandon(at, now)).toBe(expected);
  });
});

describe('the identification message of an abandoned call', () => {
  it.each([
    [
      { name: 'Ann Lee', number: '+13035550101' },
      'Hello, this is Ann Lee calling. Sorry we missed you just now. To call back, or to ask us not to call you again, dial 303 555 0101. Goodbye.',
    ],
    [
      { name: '  ', number: '+442071838750' },
      'Hello, this is a sales representative calling. Sorry we missed you just now. To call back, or to ask us not to call you again, dial +442071838750. Goodbye.',
    ],
  ])('names the caller and a number that takes a do-not-call request', (caller, message) => {
    expect(abandonmentMessage(caller)).toBe(message);
  });
});
