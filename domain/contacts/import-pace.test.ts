import { describe, expect, it } from 'vitest';
import { FIRST_PACE, IMPORT_PACE, importPace, type Pace } from './import-pace.ts';

const at = (restPerBusyMs: number): Pace => ({ ...FIRST_PACE, restPerBusyMs });
const { savers, restPerBusyMs: base, mostRestPerBusyMs: most } = IMPORT_PACE;

describe('importPace', () => {
  it.each([
    // before (rest per busy ms), batch ms, busy share, a request waited, then: savers, rest ms, rest per busy ms
    [base, 1000, 0, false, savers, 0, base],
    [base, 1000, 0.19, false, savers, 0, base],
    [base, 1000, 0.2, false, 1, 400, base],
    [base, 1000, 0.5, false, 1, 1000, base],
    [base, 1000, 1, false, 1, 2000, base],
    [base, 1000, 3, false, 1, 2000, base],
    [base, -5, 1, false, 1, 0, base],
    [base, 0, 1, false, 1, 0, base],
    [base, 1000, Number.NaN, false, savers, 0, base],
    // Somebody waited for a connection: the pool counts as all in use, and the rest doubles, up to the most.
    [base, 1000, 0.1, true, 1, 4000, 4],
    [4, 1000, 0.5, true, 1, 8000, 8],
    [16, 1000, 1, true, 1, 32_000, most],
    [most, 1000, 1, true, 1, 32_000, most],
    // Then each batch without a wait halves it, down to the first step, whether busy or idle.
    [most, 1000, 1, false, 1, 16_000, 16],
    [8, 1000, 0.5, false, 1, 2000, 4],
    [8, 1000, 0, false, savers, 0, 4],
    [3, 1000, 1, false, 1, 2000, base],
  ])(
    'at %i ms a busy ms, a batch of %i ms, others busy %f of it, waited %s: %i savers, rest %i ms, then %i',
    (before, batchMs, busyShare, waited, expectedSavers, restMs, after) => {
      expect(importPace(at(before), { batchMs, busyShare, waited })).toEqual({
        savers: expectedSavers,
        restMs,
        restPerBusyMs: after,
      });
    },
  );

  it('saves at most a thirty-third of the time while people keep waiting', () => {
    let pace = FIRST_PACE;
    for (let batch = 0; batch < 10; batch++)
      pace = importPace(pace, { batchMs: 1000, busyShare: 1, waited: true });
    expect(1000 / (1000 + pace.restMs)).toBeCloseTo(1 / 33, 5);
  });
});
