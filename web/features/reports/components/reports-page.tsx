import { Link, useSearchParams } from 'react-router';
import { FileText } from 'lucide-react';
import { DaySchema } from '#domain/time/zoned-time.ts';
import { Button } from '../../../components/ui/button.tsx';
import { DayField } from '../../../components/ui/day-field.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { todayIn } from '../../../lib/zoned-days.ts';
import { useTimeZone } from '../../auth/public.ts';
import { OverviewTab } from './overview-tab.tsx';
import { QualifiedLeadsTab } from './qualified-leads-tab.tsx';

const TABS = ['overview', 'qualified'];

/**
 * /reports: a single-day picker (default today in the user's time zone, Settings → Profile, else
 * the browser's), the Overview and Qualified Leads tabs, and the way to the Call Reports page. The day and the tab
 * are in the address, so a report can be linked and reloaded.
 */
export function ReportsPage() {
  const timeZone = useTimeZone();
  const [params, setParams] = useSearchParams();
  const today = todayIn(timeZone);
  const asked = params.get('day') ?? '';
  const day = DaySchema.safeParse(asked).success ? asked : today;
  const tab = TABS.includes(params.get('tab') ?? '') ? params.get('tab')! : 'overview';
  const set = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(key, value);
        return next;
      },
      { replace: true },
    );
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Reports</h1>
          <p className="text-muted-foreground">How your calling went, day by day ({timeZone}).</p>
        </div>
        <div className="ml-auto flex flex-wrap items-end gap-3">
          <DayField id="report-day" value={day} max={today} onChange={(next) => set('day', next)} />
          <Button variant="outline" asChild>
            <Link to="/reports/dashboard">
              <FileText /> Call Reports
            </Link>
          </Button>
        </div>
      </div>
      <Tabs value={tab} onValueChange={(next) => set('tab', next)}>
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="qualified">Qualified Leads</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <OverviewTab day={day} timeZone={timeZone} />
        </TabsContent>
        <TabsContent value="qualified">
          <QualifiedLeadsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
