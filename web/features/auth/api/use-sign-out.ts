import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { AUTH_MESSAGES } from '#domain/auth/auth-messages.ts';
import { signOut } from './auth-requests.ts';
import { sessionQueryKey } from './session.ts';

/** Log Out: ends the session on the server, then leaves for /auth and drops every cached answer of the user. */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    // Requests still loading would come back 401 once the session ends: cancel them first.
    await queryClient.cancelQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
    try {
      await signOut();
    } catch {
      toast.error(AUTH_MESSAGES.signOutFailure.title, {
        description: AUTH_MESSAGES.signOutFailure.description,
      });
      return;
    }
    // Signed out first, so the guard unmounts the app's screens before their data is dropped; dropping it while
    // they are mounted would make them refetch without a session.
    queryClient.setQueryData(sessionQueryKey, { profile: null, reason: 'signed-out' });
    toast.success(AUTH_MESSAGES.signOutSuccess.title, {
      description: AUTH_MESSAGES.signOutSuccess.description,
    });
    await navigate('/auth', { replace: true });
    setTimeout(
      () => queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] }),
      0,
    );
  };
}
