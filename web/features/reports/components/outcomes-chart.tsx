import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DispositionSchema } from '#domain/calls/disposition.ts';
import { dispositionText, NO_DISPOSITION, OUTCOME_RANGES } from '#domain/reports/overview.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useOutcomes } from '../api/report-queries.ts';
import { CHART_STYLE, ChartCard } from './chart-card.tsx';

const KNOWN = [...DispositionSchema.options, NO_DISPOSITION] as string[];
const colourOf = (outcome: string) =>
  KNOWN.includes(outcome) ? `var(--chart-${outcome})` : 'var(--chart-other)';
const shortDay = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}`;

/** Outcomes per day over the last 7 or 30 days up to the chosen day, stacked by disposition. */
export function OutcomesChart({ day, timeZone }: { day: string; timeZone: string }) {
  const [days, setDays] = useState<number>(7);
  const outcomes = useOutcomes(day, timeZone, days);
  const rows = outcomes.data?.days ?? [];
  const present = new Set(rows.flatMap((d) => Object.keys(d.outcomes)));
  const series = [...KNOWN.filter((o) => present.has(o)), ...[...present].filter((o) => !KNOWN.includes(o))];
  const data = rows.map((d) => ({ label: shortDay(d.day), ...d.outcomes }));
  return (
    <ChartCard
      title="Outcomes"
      description={`Calls per day by disposition, the last ${days} days.`}
      actions={
        <div role="radiogroup" aria-label="Range" className="flex gap-1">
          {OUTCOME_RANGES.map((n) => (
            <Button
              key={n}
              size="sm"
              role="radio"
              aria-checked={days === n}
              variant={days === n ? 'default' : 'outline'}
              onClick={() => setDays(n)}
            >
              {n} days
            </Button>
          ))}
        </div>
      }
      chart={
        outcomes.isPending ? (
          <Spinner />
        ) : outcomes.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {outcomes.error.message}
          </p>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid stroke={CHART_STYLE.axis} strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={CHART_STYLE.tick} stroke={CHART_STYLE.axis} />
              <YAxis allowDecimals={false} tick={CHART_STYLE.tick} stroke={CHART_STYLE.axis} />
              <Tooltip contentStyle={CHART_STYLE.tooltip} cursor={CHART_STYLE.cursor} />
              <Legend formatter={CHART_STYLE.legend} />
              {series.map((o) => (
                <Bar key={o} dataKey={o} name={dispositionText(o)} stackId="outcomes" fill={colourOf(o)} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        )
      }
      table={{
        caption: 'Outcomes per day',
        columns: ['Day', 'Calls', ...series.map(dispositionText)],
        rows: rows.map((d) => [d.day, d.total, ...series.map((o) => d.outcomes[o] ?? 0)]),
      }}
    />
  );
}
