import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { callTarget, type CallTarget } from './active-call.ts';
import { callingSetupQuery, useCallingSetup } from './api/calls-queries.ts';
import { callerIdToSend } from './local-presence.ts';

/**
 * The Call action of a contact row, a page or the dial line: the provider and caller ID (the default, or none for
 * the server to choose the nearest) come from the calling setup, fetched on the spot if the click comes before it has loaded.
 */
export function useCallAction(): (target: CallTarget) => void {
  useCallingSetup();
  const queryClient = useQueryClient();
  return (target) => {
    void queryClient
      .fetchQuery(callingSetupQuery)
      .then((setup) => callTarget(target, { provider: setup.provider, from: callerIdToSend(setup) }))
      // Placed or refused, the attempt is in the contact's consent record now.
      .then(() => queryClient.invalidateQueries({ queryKey: ['calls', 'consent'] }))
      .catch(() =>
        toast.error('Error initiating call', { description: 'Could not connect to calling service' }),
      );
  };
}
