import { describe, expect, it } from 'vitest';
import { answeredByOf, suggestedDisposition } from './answered-by.ts';

describe('answering-machine detection', () => {
  it.each([
    ['human', 'human'],
    ['machine_start', 'machine'],
    ['machine_end_beep', 'machine'],
    ['machine_end_silence', 'machine'],
    ['machine_end_other', 'machine'],
    ['fax', 'fax'],
    ['unknown', 'unknown'],
    ['', null],
    [undefined, null],
    ['toString', null],
    ['HUMAN', null],
  ])("reads Twilio's AnsweredBy %j as %j", (value, expected) => {
    expect(answeredByOf(value)).toBe(expected);
  });

  it.each([
    ['machine', 'voicemail'],
    ['fax', 'no-answer'],
    ['human', null],
    ['unknown', null],
    [null, null],
  ] as const)('proposes an outcome for a call answered by %j: %j', (answeredBy, expected) => {
    expect(suggestedDisposition(answeredBy)).toBe(expected);
  });
});
