/** A change the server announced on a user's event stream (domain/realtime/change-event.ts). */
export type StreamedChange = { topic: string; id?: string };

/**
 * A user's event stream (`GET /api/events`), held open as a browser holds it. `ready` resolves on the server's
 * `ready` event (from then no change is missed), or fails with the stream; `onChange` sees every change; `next(ms)` resolves true on the next
 * change of `topic`, or false after `ms`.
 */
export function openEventStream(
  base: string,
  cookie: string,
  options: { topic?: string; onChange?: (change: StreamedChange) => void } = {},
) {
  const topic = options.topic ?? 'calls';
  const waiter: { wake: (() => void) | null } = { wake: null };
  const controller = new AbortController();
  let markReady!: () => void;
  let failReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // A stream closed before it was ready fails `ready` for whoever awaits it, without crashing the benchmark.
  ready.catch(() => undefined);
  void (async () => {
    const response = await fetch(`${base}/api/events`, { headers: { cookie }, signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith('event: ready')) markReady();
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!data || !block.startsWith('event: change')) continue;
        const change = JSON.parse(data) as StreamedChange;
        options.onChange?.(change);
        if (change.topic !== topic) continue;
        waiter.wake?.();
        waiter.wake = null;
      }
    }
  })().catch((error: unknown) => failReady(error));
  return {
    ready,
    next: (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        waiter.wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      }),
    close: () => controller.abort(),
  };
}
