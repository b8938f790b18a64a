const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

/** The cell as written to a CSV file: a leading apostrophe before anything a spreadsheet would run. */
export function escapeCell(value: string): string {
  return value.length > 0 && FORMULA_TRIGGERS.has(value[0]!) ? `'${value}` : value;
}

/** The inverse of escapeCell, for files we exported ourselves. */
export function unescapeCell(value: string): string {
  return value.length > 1 && value[0] === "'" && FORMULA_TRIGGERS.has(value[1]!) ? value.slice(1) : value;
}
