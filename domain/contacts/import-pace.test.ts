import { describe, expect, it } from 'vitest';
import { FIRST_PACE, IMPORT_PACE, importPace, peopleWaited, type Pace } from './import-pace.ts';

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
      expect(importPace(at(before), { batchMs, busyShare, waited, cpuStalled: null })).toEqual({
        savers: expectedSavers,
        restMs,
        restPerBusyMs: after,
      });
    },
  );

  it('saves at most a thirty-third of the time while people keep waiting', () => {
    let pace = FIRST_PACE;
    for (let batch = 0; batch < 10; batch++)
      pace = importPace(pace, { batchMs: 1000, busyShare: 1, waited: true, cpuStalled: null });
    expect(1000 / (1000 + pace.restMs)).toBeCloseTo(1 / 33, 5);
  });

  it.each([
    // others busy, tasks waited for a CPU this share of the time (null: the kernel does not say), a request waited
    // for a connection, then: people waited
    [0, 0.9, false, false],
    [0.19, 0.9, false, false],
    [0.2, 0.09, false, false],
    [0.2, 0.1, false, true],
    [0.5, 0.5, false, true],
    [1, null, false, false],
    [0, null, true, true],
    [0, 0, true, true],
  ])(
    'others busy %f, CPU stalled %s, a request waited %s: people waited %s',
    (busyShare, cpuStalled, waited, expected) => {
      expect(peopleWaited({ batchMs: 1000, busyShare, waited, cpuStalled })).toBe(expected);
    },
  );

  it.each([
    // before, busy share, CPU stalled, then: savers, rest ms, rest per busy ms
    // Others busy and tasks waiting for a CPU: as when a request waited for a connection, all in use, doubled.
    [base, 0.2, 0.1, 1, 4000, 4],
    [16, 0.5, 0.3, 1, 32_000, most],
    // The import alone keeping the cores busy: full speed, the step unchanged.
    [base, 0.1, 0.9, savers, 0, base],
    // Others busy, the machine not crowded: the rest of the busy share, halved towards the first step.
    [8, 0.5, 0.05, 1, 2000, 4],
    [8, 0.5, null, 1, 2000, 4],
  ])(
    'at %i ms a busy ms, others busy %f, CPU stalled %s: %i savers, rest %i ms, then %i',
    (before, busyShare, cpuStalled, expectedSavers, restMs, after) => {
      expect(importPace(at(before), { batchMs: 1000, busyShare, waited: false, cpuStalled })).toEqual({
        savers: expectedSavers,
        restMs,
        restPerBusyMs: after,
      });
    },
  );
});
