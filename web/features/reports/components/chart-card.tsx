import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';

/** Axis, grid and tooltip styling that follows the theme's colours. */
export const CHART_STYLE = {
  tick: { fill: 'var(--muted-foreground)', fontSize: 12 },
  axis: 'var(--border)',
  tooltip: {
    background: 'var(--card)',
    border: '1px solid var(--border)',
    borderRadius: 8,
    color: 'var(--card-foreground)',
  },
  cursor: { fill: 'var(--muted)' },
  /** Legend entries in the text colour, whatever their swatch. */
  legend: (value: string) => <span className="text-foreground">{value}</span>,
} as const;

/**
 * A chart with the same figures as a table behind it ("an accessible table behind each"): the drawing is
 * for the eye; screen readers and anyone who wants exact numbers open the table.
 */
export function ChartCard(props: {
  title: string;
  description: string;
  actions?: ReactNode;
  chart: ReactNode;
  table: { caption: string; columns: string[]; rows: (string | number)[][] };
}) {
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle>{props.title}</CardTitle>
          <CardDescription>{props.description}</CardDescription>
        </div>
        {props.actions && <div className="ml-auto">{props.actions}</div>}
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div aria-hidden className="h-64 w-full">
          {props.chart}
        </div>
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground hover:text-foreground">
            Show the figures as a table
          </summary>
          <Table aria-label={props.table.caption} className="mt-2">
            <TableHeader>
              <TableRow>
                {props.table.columns.map((c) => (
                  <TableHead key={c}>{c}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {props.table.rows.map((row) => (
                <TableRow key={String(row[0])}>
                  {row.map((cell, i) => (
                    <TableCell key={props.table.columns[i]}>{cell}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </details>
      </CardContent>
    </Card>
  );
}
