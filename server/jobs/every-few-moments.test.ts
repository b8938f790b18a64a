import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { everyFewMoments } from './every-few-moments.ts';

const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('everyFewMoments', () => {
  it('looks every tick, never two at once; fifty calls of soon during a look make one more look, at once', async () => {
    let looks = 0;
    let inFlight = 0;
    let most = 0;
    let finish: (() => void) | null = null;
    const repeating = everyFewMoments(
      100,
      () => {
        looks++;
        inFlight++;
        most = Math.max(most, inFlight);
        return new Promise<void>((resolve) => {
          finish = () => {
            inFlight--;
            resolve();
          };
        });
      },
      log,
      'failed',
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(looks).toBe(1);
    for (let i = 0; i < 50; i++) repeating.soon();
    finish!();
    await vi.advanceTimersByTimeAsync(0);
    expect(looks).toBe(2);
    finish!();
    await vi.advanceTimersByTimeAsync(99);
    expect(looks).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(looks).toBe(3);
    expect(most).toBe(1);
    repeating.stop();
    finish!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(looks).toBe(3);
  });

  it('looks at once when idle and asked soon, and a failing look is logged once per outage and tried again', async () => {
    let looks = 0;
    let failing = true;
    const warn = vi.fn();
    const repeating = everyFewMoments(
      100,
      () => {
        looks++;
        return failing ? Promise.reject(new Error('database down')) : Promise.resolve();
      },
      { warn } as unknown as FastifyBaseLogger,
      'not read',
    );
    repeating.soon();
    await vi.advanceTimersByTimeAsync(0);
    expect(looks).toBe(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(looks).toBe(4);
    expect(warn).toHaveBeenCalledTimes(1);
    failing = false;
    await vi.advanceTimersByTimeAsync(100);
    failing = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(warn).toHaveBeenCalledTimes(2);
    repeating.stop();
  });
});
