import { Link } from 'react-router';
import { dispositionText } from '#domain/reports/overview.ts';
import { timeIn } from '#domain/time/zoned-time.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Stat } from '../../../components/ui/stat.tsx';
import { useOverview } from '../api/report-queries.ts';
import { HourlyChart } from './hourly-chart.tsx';
import { OutcomesChart } from './outcomes-chart.tsx';

/**
 * The Overview tab: cards Total Calls, Qualified Leads and Answered Calls for the chosen day;
 * the day's dispositions with counts (hyphens as spaces); the 10 most recent calls; beyond the spec, calls by hour
 * and outcomes over 7 or 30 days.
 */
export function OverviewTab({ day, timeZone }: { day: string; timeZone: string }) {
  const overview = useOverview(day, timeZone);
  if (overview.isPending) return <Spinner />;
  if (overview.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load the overview: {overview.error.message}
      </p>
    );
  }
  const o = overview.data;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3" aria-label="The day in figures">
        <Stat label="Total Calls" value={String(o.totalCalls)} />
        <Stat label="Qualified Leads" value={String(o.qualifiedLeads)} />
        <Stat label="Answered Calls" value={String(o.answeredCalls)} />
      </dl>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Call Dispositions</CardTitle>
          </CardHeader>
          <CardContent>
            {o.dispositions.length === 0 ? (
              <p className="text-sm text-muted-foreground">No dispositions saved this day.</p>
            ) : (
              <ul aria-label="Call Dispositions" className="flex flex-col gap-2">
                {o.dispositions.map((d) => (
                  <li key={d.disposition} className="flex items-center justify-between">
                    <span>{dispositionText(d.disposition)}</span>
                    <Badge variant="secondary" className="tabular-nums">
                      {d.count}
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent Calls</CardTitle>
          </CardHeader>
          <CardContent>
            {o.recentCalls.length === 0 ? (
              <p className="text-sm text-muted-foreground">No calls this day.</p>
            ) : (
              <ul aria-label="Recent Calls" className="flex flex-col divide-y divide-border">
                {o.recentCalls.map((c) => (
                  <li key={c.key} className="flex items-center gap-3 py-2">
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium">
                        {c.contactId && c.name ? (
                          <Link to={`/contacts/${c.contactId}`} className="hover:underline">
                            {c.name}
                          </Link>
                        ) : (
                          (c.name ?? (c.contactId ? 'Deleted contact' : 'Unknown contact'))
                        )}
                      </p>
                      <p className="truncate text-xs text-muted-foreground">{c.company ?? ''}</p>
                    </div>
                    <span className="text-sm">{dispositionText(c.disposition)}</span>
                    <time dateTime={c.at} className="text-sm text-muted-foreground tabular-nums">
                      {timeIn(new Date(c.at), timeZone)}
                    </time>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
      <HourlyChart hourly={o.hourly} timeZone={timeZone} />
      <OutcomesChart day={day} timeZone={timeZone} />
    </div>
  );
}
