import { useInfiniteQuery } from '@tanstack/react-query';
import { CallReportsPageSchema } from '#domain/reports/call-report.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { REPORT_FRESHNESS } from './report-queries.ts';

/**
 * The user's call reports page by page, filtered on the server (DECISIONS.md: reports are fresh for 5 minutes, no
 * retries). Under 'calls', so a call or disposition change announced live refreshes them.
 */
export function useCallReports(search: string) {
  return useInfiniteQuery({
    queryKey: ['calls', 'reports', search],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (search) query.set('search', search);
      if (pageParam) query.set('after', pageParam);
      return apiFetch(`/api/call-reports?${query.toString()}`, { schema: CallReportsPageSchema, signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    ...REPORT_FRESHNESS,
  });
}

/** Where call_reports.csv of the same filter downloads from (the browser's own download, streamed by the server). */
export const callReportsExportUrl = (search: string) =>
  `/api/call-reports/export${search ? `?${new URLSearchParams({ search }).toString()}` : ''}`;
