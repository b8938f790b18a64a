import { describe, expect, it } from 'vitest';
import { campaignActions } from './campaign-state.ts';
import {
  CreateEmailSequenceSchema,
  DAY_MS,
  dueAfter,
  SEQUENCE_MESSAGES,
  sequenceProgressText,
} from './email-sequence.schema.ts';

const step = { subject: 'Hi {{firstName}}', body: 'Hello', delayDays: 0 };
const valid = {
  name: ' Onboarding ',
  steps: [step],
  selection: { ids: ['00000000-0000-4000-8000-000000000001'] },
};

describe('e-mail sequences', () => {
  it("checks a sequence in the spec's words, and trims its name", () => {
    expect(CreateEmailSequenceSchema.parse(valid).name).toBe('Onboarding');
    const message = (input: object) => CreateEmailSequenceSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ ...valid, name: '  ' })).toBe(SEQUENCE_MESSAGES.nameRequired.description);
    expect(message({ ...valid, steps: [] })).toBe(SEQUENCE_MESSAGES.stepsRequired);
    expect(message({ ...valid, steps: Array(11).fill(step) })).toBe('A sequence has at most 10 e-mails');
    expect(message({ ...valid, steps: [{ ...step, delayDays: 1.5 }] })).toBe(
      'A delay is a whole number of days',
    );
    expect(message({ ...valid, steps: [{ ...step, subject: ' ' }] })).toBe(
      'Each e-mail of the sequence needs a subject.',
    );
    expect(message({ ...valid, steps: [step, { ...step, body: '{{nickname}}' }] })).toMatch(
      /Unknown merge field \{\{nickname\}\}/,
    );
  });

  it('a contact joins a sequence until it is canceled, a one-time campaign only as a draft', () => {
    expect(campaignActions('sent', 'sequence')).toMatchObject({ enroll: true, leave: true, edit: false });
    expect(campaignActions('canceled', 'sequence')).toMatchObject({ enroll: false, leave: false });
    expect(campaignActions('draft', 'sequence')).toMatchObject({ enroll: true, leave: false, edit: true });
    expect(campaignActions('sending', 'campaign')).toMatchObject({ enroll: false, leave: false });
    expect(campaignActions('draft')).toMatchObject({ enroll: true });
  });

  it('says how far a recipient has come and when its next e-mail is due', () => {
    const from = new Date('2026-11-21T09:00:00Z');
    expect(dueAfter(from, 2).getTime() - from.getTime()).toBe(2 * DAY_MS);
    const day = (iso: string) => iso.slice(0, 10);
    expect(
      sequenceProgressText({ state: 'queued', stepsSent: 1, dueAt: dueAfter(from, 2).toISOString() }, 3, day),
    ).toBe('1 of 3 e-mails sent · e-mail 2 due 2026-11-23');
    expect(sequenceProgressText({ state: 'sent', stepsSent: 3, dueAt: null }, 3, day)).toBe(
      '3 of 3 e-mails sent',
    );
  });
});
