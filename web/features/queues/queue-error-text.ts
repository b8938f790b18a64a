import { ApiError } from '../../lib/api-client.ts';

/**
 * What a failed queue change says: the spec's words, unless the server refused it for a reason the person can act
 * on (a conflict: the default queue, a fill still under way), which it then says.
 */
export const queueErrorText = (error: Error, fallback: string) =>
  error instanceof ApiError && error.status === 409 ? error.message : fallback;
