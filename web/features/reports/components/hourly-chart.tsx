import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Overview } from '#domain/reports/overview.ts';
import { CHART_STYLE, ChartCard } from './chart-card.tsx';

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Calls and answers per hour of the chosen day, in the user's time zone. */
export function HourlyChart({ hourly, timeZone }: { hourly: Overview['hourly']; timeZone: string }) {
  const data = hourly.map((h) => ({ ...h, label: hourLabel(h.hour) }));
  return (
    <ChartCard
      title="Calls by hour"
      description={`Calls and answered calls per hour (${timeZone}).`}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid stroke={CHART_STYLE.axis} strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={CHART_STYLE.tick} stroke={CHART_STYLE.axis} interval={2} />
            <YAxis allowDecimals={false} tick={CHART_STYLE.tick} stroke={CHART_STYLE.axis} />
            <Tooltip contentStyle={CHART_STYLE.tooltip} cursor={CHART_STYLE.cursor} />
            <Legend formatter={CHART_STYLE.legend} />
            <Bar dataKey="calls" name="Calls" fill="var(--chart-calls)" radius={[3, 3, 0, 0]} />
            <Bar dataKey="answered" name="Answered" fill="var(--chart-answered)" radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      }
      table={{
        caption: 'Calls by hour',
        columns: ['Hour', 'Calls', 'Answered'],
        rows: hourly.filter((h) => h.calls > 0).map((h) => [hourLabel(h.hour), h.calls, h.answered]),
      }}
    />
  );
}
