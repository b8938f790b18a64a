/*
 * SQL text with its bind parameters written in as literals, for the statements PostgreSQL cannot parameterise
 * (EXPLAIN, used to estimate counts; COPY ... TO of a query). Only for values the server produced or validated.
 */

/** EXPLAIN takes no bind parameters: inline them as literals (values come from our own validated filter). */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, i: string) => literal(parameters[Number(i) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return `'${value.toISOString()}'::timestamptz`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `array[${value.map(literal).join(',')}]`;
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  throw new Error(`cannot inline a ${typeof value} into EXPLAIN`);
}
