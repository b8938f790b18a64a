/** The targets every endpoint a rep uses is held to on the sales floor: p95 and p99, in ms. */
export const REP_ENDPOINT_P95_MS = 100;
export const REP_ENDPOINT_P99_MS = 300;

/** Whether latencies (their p95 and p99) meet a rep's targets. */
export const meetsRepTargets = (s: { p95: number; p99: number }) =>
  s.p95 <= REP_ENDPOINT_P95_MS && s.p99 <= REP_ENDPOINT_P99_MS;
