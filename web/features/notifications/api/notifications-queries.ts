import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NotificationSettingsResponseSchema,
  NotificationsPageSchema,
  type NotificationSettings,
} from '#domain/notifications/notification.schema.ts';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

type SettingsResponse = z.infer<typeof NotificationSettingsResponseSchema>;
const SETTINGS_KEY = ['notifications', 'settings'];

/** The user's notifications, newest first (the 'notifications' realtime topic refreshes them as they arrive). */
export function useNotifications() {
  return useInfiniteQuery({
    queryKey: ['notifications', 'list'],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '20' });
      if (pageParam) query.set('after', pageParam);
      return apiFetch(`/api/notifications?${query.toString()}`, { schema: NotificationsPageSchema, signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
}

/** Marks some notifications read, or all of them without ids. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) =>
      apiFetch('/api/notifications/read', { method: 'POST', body: ids ? { ids } : {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) =>
      apiFetch('/api/notification-settings', { schema: NotificationSettingsResponseSchema, signal }),
  });
}

/** Saves at once; the switch moves as it is clicked and moves back if the server refuses. */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) =>
      apiFetch('/api/notification-settings', {
        method: 'PUT',
        body: settings,
        schema: NotificationSettingsResponseSchema,
      }),
    onMutate: async (settings) => {
      await queryClient.cancelQueries({ queryKey: SETTINGS_KEY });
      const before = queryClient.getQueryData<SettingsResponse>(SETTINGS_KEY);
      if (before) queryClient.setQueryData<SettingsResponse>(SETTINGS_KEY, { ...before, settings });
      return { before };
    },
    onError: (_error, _settings, context) => {
      if (context?.before) queryClient.setQueryData(SETTINGS_KEY, context.before);
    },
    onSuccess: (saved) => putAnswer(queryClient, SETTINGS_KEY, saved),
  });
}
