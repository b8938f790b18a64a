import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** Defaults: 5 minutes fresh; identity and permission failures are never retried (decision 000). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * 60 * 1000,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 3;
        },
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      },
    },
  });
}

/**
 * Puts a write's answer in the cache. A read of the same key started before the write (a refetch on a realtime
 * change, on focus) would land after it and bring back what the write replaced, so it is cancelled first.
 */
export async function putAnswer<T>(queryClient: QueryClient, queryKey: readonly unknown[], answer: T) {
  await queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData<T>(queryKey, answer);
}
