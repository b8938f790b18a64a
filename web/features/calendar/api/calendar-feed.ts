import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarFeedResponseSchema } from '#domain/calendar/callback-feed.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const feedKey = ['calendar-feed'] as const;

/** The callbacks calendar feed (decision 032): its secret address, if the user made one. */
export const useCalendarFeed = () =>
  useQuery({
    queryKey: feedKey,
    queryFn: ({ signal }) => apiFetch('/api/calendar-feed', { schema: CalendarFeedResponseSchema, signal }),
  });

/** Makes the address, or a new one in place of the old (which stops working). */
export function useMakeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/calendar-feed', { method: 'POST', schema: CalendarFeedResponseSchema }),
    onSuccess: (answer) => putAnswer(queryClient, feedKey, answer),
  });
}

export function useTurnOffCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/calendar-feed', { method: 'DELETE' }),
    onSuccess: () => putAnswer(queryClient, feedKey, { feed: null }),
  });
}
