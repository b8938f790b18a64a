import { toast } from 'sonner';
import { callTarget, type CallTarget } from './active-call.ts';
import { useCallingSetup } from './api/calls-queries.ts';

/** The Call action of a contact row or page: the provider and default caller ID come from the calling setup. */
export function useCallAction(): (target: CallTarget) => void {
  const setup = useCallingSetup();
  return (target) => {
    if (!setup.data) {
      toast.error('Error initiating call', { description: 'Could not connect to calling service' });
      return;
    }
    void callTarget(target, { provider: setup.data.provider, from: setup.data.defaultFrom });
  };
}
