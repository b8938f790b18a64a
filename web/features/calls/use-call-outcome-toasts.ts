import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { Call } from '#domain/calls/call.schema.ts';

/** What a call that did not go through says: the provider's words, or the spec's. */
export const CALL_ISSUE = { title: 'Call issue', fallback: 'There was an issue with the call.' } as const;

/**
 * Tells the person how a call they placed turned out, once each: 'Call connected' when someone answers, 'Call issue'
 * (with the provider's words) when it fails. Busy and no-answer are outcomes, not issues: the disposition says them.
 */
export function useCallOutcomeToasts(call: Pick<Call, 'id' | 'status' | 'error'> | null): void {
  const said = useRef(new Set<string>());
  useEffect(() => {
    if (!call) return;
    const key = `${call.id}:${call.status}`;
    if (said.current.has(key)) return;
    if (call.status === 'in-progress') toast.success('Call connected');
    else if (call.status === 'failed')
      toast.error(CALL_ISSUE.title, { description: call.error || CALL_ISSUE.fallback });
    else return;
    said.current.add(key);
  }, [call]);
}
