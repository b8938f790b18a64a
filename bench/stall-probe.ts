import { spawn } from 'node:child_process';

/**
 * A process of its own that does nothing but wake every 10 ms and note how late it woke: when it is late too, the
 * whole machine stalled (every core busy, or the virtual machine not scheduled), not one server's event loop. Its
 * figures, read at the end: the wake-ups later than 50 ms, the longest, and the lateness p99.
 */
const PROBE = `
const late = [];
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  late.push(now - last - 10);
  last = now;
}, 10);
process.stdin.on('end', () => {
  late.sort((a, b) => a - b);
  const over = late.filter((ms) => ms > 50);
  process.stdout.write(JSON.stringify({
    wakeups: late.length,
    over50: over.length,
    longestMs: late.at(-1) ?? 0,
    p99Ms: late[Math.floor(late.length * 0.99)] ?? 0,
    lateMsOver50: over.reduce((a, b) => a + b, 0),
  }));
  process.exit(0);
});
process.stdin.resume();
`;

export type StallFigures = {
  wakeups: number;
  over50: number;
  longestMs: number;
  p99Ms: number;
  /** The time those late wake-ups lost, in all (ms). */
  lateMsOver50: number;
};

export function startStallProbe(): { finish: () => Promise<StallFigures> } {
  const child = spawn(process.execPath, ['-e', PROBE], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    finish: async () => {
      child.stdin.end();
      await exited;
      return JSON.parse(out) as StallFigures;
    },
  };
}

export const stallProbeLine = (s: StallFigures) =>
  `${s.over50} of ${s.wakeups} wake-ups > 50 ms late (${(s.lateMsOver50 / 1000).toFixed(1)} s lost; longest ${s.longestMs.toFixed(0)} ms; p99 ${s.p99Ms.toFixed(1)} ms)`;
