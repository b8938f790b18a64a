import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionStateSchema, type SessionState } from '#domain/profiles/profile.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';

export const sessionQueryKey = ['session'] as const;

/** Who is signed in, if anyone, and why not (signed out, denied, deactivated). */
export function fetchSession(): Promise<SessionState> {
  return apiFetch('/api/session', { schema: SessionStateSchema });
}

export const sessionQueryOptions = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: fetchSession,
  staleTime: 60_000,
  // A pending person waits for approval on this screen; the realtime stream usually moves them on at once,
  // this is the fallback when the stream is cut.
  refetchInterval: (query) => (query.state.data?.profile?.role === 'pending' ? 30_000 : false),
});

export function useSession() {
  const query = useQuery(sessionQueryOptions);
  return { ...query, data: query.data?.profile ?? null, reason: query.data?.reason ?? null };
}
