import { readFileSync } from 'node:fs';

/**
 * What a server's CPU profile (`BENCH_CPU_PROF=dir` on a floor benchmark, or node --cpu-prof) says its main thread
 * did in a window at the profile's end: time by package or source folder, by the nearest frame of the product's own
 * code (server/ or domain/) on the stack, by function, the native calls that took longest with their callers, and
 * the busiest seconds. A sample's time is the gap until the next one, so time the thread spent waiting for a CPU
 * (taken by another process) lands on whatever it was running: a socket write that woke a PostgreSQL backend shows
 * as `writev`.
 *
 *   node --import tsx bench/cpu-profile-summary.ts <file.cpuprofile> [window seconds = 180] [skip at end = 5]
 */
type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

const OWN_CODE = /\/(server|domain)\//;
const TRACE_WRAPPER = /slow-request-trace/;

export function summariseProfile(profile: Profile, windowSeconds: number, skipEndSeconds: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const end = profile.endTime - skipEndSeconds * 1e6;
  const start = end - windowSeconds * 1e6;
  const byPlace = new Map<string, number>();
  const byOwnFrame = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const callersOfNative = new Map<string, number>();
  const seconds = new Map<number, number>();
  let busyMs = 0;
  let idleMs = 0;
  let at = profile.startTime;
  const add = <K>(map: Map<K, number>, key: K, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < start || at > end) return;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    add(seconds, Math.floor((at - start) / 1e6), ms);
    add(byPlace, placeOf(frame.url), ms);
    add(byFunction, `${nameOf(frame)} ${placeOf(frame.url)}:${frame.lineNumber}`, ms);
    const chain: CallFrame[] = [];
    for (let node = parentOf.get(id); node !== undefined; node = parentOf.get(node))
      chain.push(byId.get(node)!.callFrame);
    const own = chain.find(
      (f) => OWN_CODE.test(f.url) && !f.url.includes('node_modules') && !TRACE_WRAPPER.test(f.url),
    );
    add(byOwnFrame, own ? `${placeOf(own.url)} ${nameOf(own)}` : '(none on the stack)', ms);
    if (!frame.url)
      add(
        callersOfNative,
        `${nameOf(frame)} < ${chain
          .slice(0, 6)
          .map((f) => `${nameOf(f)}@${f.url.replace(/^.*\//, '')}`)
          .join(' < ')}`,
        ms,
      );
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `${(ms / 1000).toFixed(2)} s ${((100 * ms) / busyMs).toFixed(1)} % ${key}`)
      .join('\n');
  const busiest = [...seconds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([second, ms]) => `${second}: ${(ms / 10).toFixed(0)} %`)
    .join(', ');
  return [
    `last ${windowSeconds} s (less ${skipEndSeconds}): main thread busy ${(busyMs / 1000).toFixed(1)} s, idle ${(idleMs / 1000).toFixed(1)} s`,
    `--- by package or folder\n${top(byPlace, 25)}`,
    `--- by the nearest frame of the product's own code\n${top(byOwnFrame, 25)}`,
    `--- by function\n${top(byFunction, 30)}`,
    `--- native calls by their callers\n${top(callersOfNative, 10)}`,
    `--- busiest seconds of the window (second: share busy)\n${busiest}`,
  ].join('\n');
}

const nameOf = (frame: CallFrame) => frame.functionName || '(anonymous)';

/** node_modules/<package>, server/<folder>, domain/<folder>, or the file's name. */
function placeOf(url: string): string {
  if (!url) return '(native)';
  const inPackage = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  const own = /\/(server|domain|bench)\/(.*?)(\/[^/]*)?$/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url.replace(/^.*\//, '');
}

if (process.argv[1]?.endsWith('cpu-profile-summary.ts')) {
  const [file, windowSeconds = '180', skipEnd = '5'] = process.argv.slice(2);
  if (!file) {
    console.error(
      'usage: node --import tsx bench/cpu-profile-summary.ts <file.cpuprofile> [seconds] [skip at end]',
    );
    process.exit(2);
  }
  console.log(
    summariseProfile(
      JSON.parse(readFileSync(file, 'utf8')) as Profile,
      Number(windowSeconds),
      Number(skipEnd),
    ),
  );
}
