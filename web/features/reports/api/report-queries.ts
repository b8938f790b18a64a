import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { OutcomesSchema, OverviewSchema } from '#domain/reports/overview.ts';
import { QualifiedLeadsPageSchema } from '#domain/reports/qualified-leads.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/*
 * The Reports screen's reads. DECISIONS.md: reports are fresh for 5 minutes with no retries. They live under the
 * 'calls' realtime topic, so a call or disposition of the user saved anywhere refreshes them at once.
 */
export const REPORT_FRESHNESS = { staleTime: 5 * 60_000, retry: false } as const;

export function useOverview(day: string, timeZone: string) {
  return useQuery({
    queryKey: ['calls', 'reports-overview', day, timeZone],
    queryFn: ({ signal }) =>
      apiFetch(`/api/reports/overview?${new URLSearchParams({ day, tz: timeZone }).toString()}`, {
        schema: OverviewSchema,
        signal,
      }),
    ...REPORT_FRESHNESS,
  });
}

export function useOutcomes(day: string, timeZone: string, days: number) {
  return useQuery({
    queryKey: ['calls', 'reports-outcomes', day, timeZone, days],
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/reports/outcomes?${new URLSearchParams({ day, tz: timeZone, days: String(days) }).toString()}`,
        { schema: OutcomesSchema, signal },
      ),
    ...REPORT_FRESHNESS,
  });
}

export function useQualifiedLeads(search: string) {
  return useInfiniteQuery({
    queryKey: ['calls', 'qualified-leads', search],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '30' });
      if (search) query.set('search', search);
      if (pageParam) query.set('after', pageParam);
      return apiFetch(`/api/reports/qualified-leads?${query.toString()}`, {
        schema: QualifiedLeadsPageSchema,
        signal,
      });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    ...REPORT_FRESHNESS,
  });
}
