import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AccountsPageSchema,
  AdminStatsSchema,
  DiagnosticsSchema,
  PendingUsersResponseSchema,
  ResetLinkResponseSchema,
  SystemOutboxSchema,
  type AccountStatusFilter,
} from '#domain/admin/admin.schema.ts';
import { ProfileSchema } from '#domain/profiles/profile.schema.ts';
import { ServerInstancesSchema } from '#domain/admin/server-instances.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/** Every admin query lives under 'profiles', so a profile change announced by realtime refetches them all. */
const adminKeys = {
  stats: ['profiles', 'stats'] as const,
  pending: ['profiles', 'pending'] as const,
  accounts: (search: string, status: AccountStatusFilter, page: number) =>
    ['profiles', 'accounts', { search, status, page }] as const,
  outbox: ['profiles', 'outbox'] as const,
};

export function useAdminStats() {
  return useQuery({
    queryKey: adminKeys.stats,
    queryFn: ({ signal }) => apiFetch('/api/admin/stats', { schema: AdminStatsSchema, signal }),
  });
}

export const pendingUsersQueryOptions = queryOptions({
  queryKey: adminKeys.pending,
  queryFn: async ({ signal }) =>
    (await apiFetch('/api/admin/pending', { schema: PendingUsersResponseSchema, signal })).users,
});

export function usePendingUsers() {
  return useQuery(pendingUsersQueryOptions);
}

export function useAccounts(search: string, status: AccountStatusFilter, page: number) {
  const params = new URLSearchParams({ status, page: String(page), ...(search ? { search } : {}) });
  return useQuery({
    queryKey: adminKeys.accounts(search, status, page),
    queryFn: ({ signal }) =>
      apiFetch(`/api/admin/users?${params.toString()}`, { schema: AccountsPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSystemOutbox() {
  return useQuery({
    queryKey: adminKeys.outbox,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/admin/outbox', { schema: SystemOutboxSchema, signal })).messages,
  });
}

/** How often the Servers card reads the instances again: a server stopping shows within this. */
const INSTANCES_REFRESH_MS = 30_000;

/** The server instances on this database, read again every half minute (a stopped one shows as stopped). */
export function useServerInstances() {
  return useQuery({
    queryKey: ['server-instances'],
    queryFn: ({ signal }) => apiFetch('/api/admin/instances', { schema: ServerInstancesSchema, signal }),
    refetchInterval: INSTANCES_REFRESH_MS,
  });
}

export function useDiagnostics(enabled: boolean) {
  return useQuery({
    queryKey: ['diagnostics'],
    queryFn: ({ signal }) => apiFetch('/api/admin/diagnostics', { schema: DiagnosticsSchema, signal }),
    enabled,
    staleTime: 0,
  });
}

export type AccountAction = 'approve' | 'deny' | 'deactivate' | 'reactivate' | 'make-admin' | 'make-user';

function requestFor(action: AccountAction, userId: string) {
  if (action === 'make-admin' || action === 'make-user') {
    return apiFetch(`/api/admin/users/${userId}/role`, {
      method: 'PUT',
      body: { role: action === 'make-admin' ? 'admin' : 'user' },
      schema: z.object({ profile: ProfileSchema }),
    });
  }
  return apiFetch(`/api/admin/users/${userId}/${action}`, {
    method: 'POST',
    schema: z.object({ profile: ProfileSchema }),
  });
}

export function useAccountAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, userId }: { action: AccountAction; userId: string }) => requestFor(action, userId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['profiles'] }),
  });
}

export function useResetLink() {
  return useMutation({
    mutationFn: (userId: string) =>
      apiFetch(`/api/admin/users/${userId}/reset-link`, { method: 'POST', schema: ResetLinkResponseSchema }),
  });
}
