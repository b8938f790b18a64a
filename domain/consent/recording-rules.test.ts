import { describe, expect, it } from 'vitest';
import { ALL_PARTY_CONSENT_STATES, recordingDisclosure } from './recording-rules.ts';

describe('recording disclosure', () => {
  it.each([
    // callee, caller, disclose, why
    ['CA', 'TX', true, 'The contact is in California, where every party must consent to a recording'],
    ['TX', 'TX', false, 'One-party consent: your consent to record is enough'],
    ['TX', 'CA', true, 'Your number is in California, where every party must consent to a recording'],
    ['CO', null, false, 'One-party consent: your consent to record is enough'],
    ['FL', 'WA', true, 'The contact is in Florida, where every party must consent to a recording'],
    [null, 'TX', true, "The contact's state is not known, so one-party consent cannot be relied on"],
    [null, 'IL', true, 'Your number is in Illinois, where every party must consent to a recording'],
  ])('a %s contact called from a %s number: disclose %s', (callee, caller, disclose, reason) => {
    expect(recordingDisclosure({ callee, caller })).toMatchObject({ disclose, reason });
  });

  it('names the law of each all-party state the issue lists', () => {
    for (const state of ['CA', 'FL', 'IL', 'MD', 'MA', 'MT', 'NH', 'PA', 'WA']) {
      const decision = recordingDisclosure({ callee: state, caller: null });
      expect(decision.disclose).toBe(true);
      expect(decision.source).toBe(ALL_PARTY_CONSENT_STATES[state]!.source);
    }
  });
});
