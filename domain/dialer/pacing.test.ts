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
const facts = (over: Partial<PacingFacts>): PacingFacts => ({
  mode: 'parallel',
  capPercent: null,
  last30Days: none,
  last24Hours: none,
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
    ['30 % answer, no abandonment: three lines', {}, 3],
    ['20 % answer: five lines', { recent: { dials: 100, liveAnswers: 20 } }, 5],
    ['10 % answer: never more than five', { recent: { dials: 100, liveAnswers: 10 } }, 5],
    ['70 % answer: one line', { recent: { dials: 100, liveAnswers: 70 } }, 1],
    ['45 % answer: two lines', { recent: { dials: 100, liveAnswers: 45 } }, 2],
    ['fewer than 20 dials: two lines while learning', { recent: { dials: 19, liveAnswers: 1 } }, 2],
    ['no live answer yet: two lines', { recent: { dials: 40, liveAnswers: 0 } }, 2],
    ['abandonment under half the cap: all lines', { last30Days: { liveAnswers: 100, abandoned: 1 } }, 3],
    ['half the cap over 30 days: one line less', { last30Days: { liveAnswers: 100, abandoned: 2 } }, 2],
    [
      'half the cap in the last 24 hours: one line less',
      { last24Hours: { liveAnswers: 50, abandoned: 1 } },
      2,
    ],
    [
      'near the cap: two lines at most, two less',
      { recent: { dials: 100, liveAnswers: 20 }, last30Days: { liveAnswers: 1000, abandoned: 25 } },
      2,
    ],
    ['near the cap with three ideal lines: one', { last30Days: { liveAnswers: 1000, abandoned: 25 } }, 1],
    ['at the cap: one line', { last30Days: { liveAnswers: 100, abandoned: 3 } }, 1],
    ['over the cap in the last day only: one line', { last24Hours: { liveAnswers: 20, abandoned: 1 } }, 1],
    [
      'a lower cap of 1 %: at 1 %, one line',
      { capPercent: 1, last30Days: { liveAnswers: 100, abandoned: 1 } },
      1,
    ],
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
    expect(linesToDial(facts({ last30Days: { liveAnswers: 100, abandoned: 2 } })).why).toBe(
      '2 lines: 30 % of recent dials reach a person; abandonment 2 % of a 3 % cap',
    );
    expect(linesToDial(facts({ last24Hours: { liveAnswers: 20, abandoned: 1 } })).why).toBe(
      'Abandonment 5 % has reached the cap of 3 %: one line until it falls',
    );
    expect(linesToDial(facts({ recent: { dials: 3, liveAnswers: 1 } })).why).toBe(
      '2 lines: too few dials yet to know the answer rate',
    );
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
