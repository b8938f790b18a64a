import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepAnswerAlive } from './answer-keep-alive.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("an import's answer kept alive", () => {
  it('says the last line again after a quiet spell, and never while lines come often enough', () => {
    const written: string[] = [];
    const answer = keepAnswerAlive((line: string) => written.push(line), 30_000);
    answer.say('reading 10');
    vi.advanceTimersByTime(20_000);
    answer.say('reading 20');
    vi.advanceTimersByTime(20_000);
    expect(written).toEqual(['reading 10', 'reading 20']);
    vi.advanceTimersByTime(20_000);
    expect(written).toEqual(['reading 10', 'reading 20', 'reading 20']);
    vi.advanceTimersByTime(95_000);
    // Never silent for more than the spell and a third of it.
    expect(written.length).toBeGreaterThanOrEqual(6);
    answer.stop();
    const stopped = written.length;
    vi.advanceTimersByTime(120_000);
    expect(written).toHaveLength(stopped);
  });

  it('says nothing before the first line', () => {
    const written: string[] = [];
    const answer = keepAnswerAlive((line: string) => written.push(line), 30_000);
    vi.advanceTimersByTime(100_000);
    expect(written).toEqual([]);
    answer.stop();
  });
});
