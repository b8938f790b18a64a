import { describe, expect, it } from 'vitest';
import { backgroundJobsRunning } from './server-instances.ts';

describe('whether background jobs run somewhere', () => {
  const on = { running: true, runsBackgroundJobs: true };
  const offButRunning = { running: true, runsBackgroundJobs: false };
  const stoppedWorker = { running: false, runsBackgroundJobs: true };
  const stoppedOff = { running: false, runsBackgroundJobs: false };
  it.each([
    ['no instance recorded', [], false],
    ['one instance running jobs', [on], true],
    ['only instances with jobs off', [offButRunning, offButRunning], false],
    ['the only job runner has stopped', [offButRunning, stoppedWorker], false],
    ['a stopped job runner and a running one', [stoppedWorker, on], true],
    ['everything stopped', [stoppedOff, stoppedWorker], false],
    ['jobs off beside a job runner', [offButRunning, on], true],
  ])('%s', (_, instances, expected) => {
    expect(backgroundJobsRunning(instances)).toBe(expected);
  });
});
