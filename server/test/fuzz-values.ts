import { randomUUID } from 'node:crypto';

/** A small seeded generator (mulberry32): the same seed gives the same cases, so a failure can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** Strings that have broken servers: bad bytes, huge and odd numbers, injections, odd Unicode, path tricks. */
export const NASTY_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  'name\u001b[31m',
  '\u007f\u0085\u009f',
  '',
  ' ',
  'x'.repeat(100_000),
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(500),
  '\u202eevil',
  '%00',
  '%',
  '../../../../etc/passwd',
  "'; drop table contacts; --",
  '<script>alert(1)</script>',
  '9'.repeat(400),
  '-1',
  '-0',
  '1e309',
  '2147483648',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '{"$gt":""}',
  '2026-13-45T99:99:99Z',
  '0000-00-00',
  '275760-09-13T00:00:00.001Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '=HYPERLINK("http://x")',
  '\r\n\r\n',
  '\\',
  '"',
  '__proto__',
  'constructor',
];

export const NASTY_NUMBERS: readonly number[] = [
  0,
  -1,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

const deepArray = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

/** Whole values of every JSON type, nasty ones included, for a field whose schema is not followed. */
export function nastyValue(random: () => number): unknown {
  const kind = random();
  if (kind < 0.55) return pick(random, NASTY_STRINGS);
  if (kind < 0.7) return pick(random, NASTY_NUMBERS);
  return pick(random, [
    null,
    true,
    false,
    [],
    {},
    [null],
    [pick(random, NASTY_STRINGS)],
    { __proto__: { admin: true } },
    Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])),
    deepArray(2_000),
    Array.from({ length: 20_000 }, () => randomUUID()),
  ]);
}

type ZodLike = { _zod?: { def: Record<string, unknown> } };
const defOf = (schema: unknown) => (schema as ZodLike | undefined)?._zod?.def;

/** The schema under optional, default, nullable, pipe and the like. */
function unwrap(schema: unknown): Record<string, unknown> | undefined {
  let def = defOf(schema);
  for (let i = 0; def && i < 10; i++) {
    if (def.innerType) def = defOf(def.innerType);
    else if (def.type === 'pipe') def = defOf(def.in);
    else break;
  }
  return def;
}

const PLAUSIBLE_STRINGS = [
  'Ann',
  'ann@example.com',
  '+15550100123',
  '(555) 010-0124',
  'Acme Ltd',
  'https://example.com',
  'skip',
  'all',
  'new',
  'call-back',
  'true',
  '1',
  '100',
  '2026-11-21T09:00:00.000Z',
  '127.0.0.1',
];

/**
 * A value for a field: half the time one that follows its zod schema (an enum's member, a plausible string, a
 * well-formed nested object), so the request gets past validation and into the handler; otherwise a nasty one.
 */
export function fuzzValue(schema: unknown, random: () => number, depth = 0, nastiness = 0.45): unknown {
  const def = unwrap(schema);
  if (!def || depth > 3 || random() < nastiness) return nastyValue(random);
  switch (def.type) {
    case 'enum':
      return pick(random, Object.values(def.entries as Record<string, string>));
    case 'literal':
      return pick(random, def.values as unknown[]);
    case 'boolean':
      return random() < 0.5;
    case 'number':
      return pick(random, [0, 1, 5, 100, 3]);
    case 'string':
      if (def.format === 'uuid' || def.format === 'guid') return randomUUID();
      if (def.format === 'datetime') return new Date(Date.UTC(2026, 10, 21, 9)).toISOString();
      if (def.format === 'email') return 'ann@example.com';
      return pick(random, PLAUSIBLE_STRINGS);
    case 'array':
      return Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        fuzzValue(def.element, random, depth + 1, nastiness),
      );
    case 'object':
      return fuzzObject(schema, random, depth + 1, nastiness);
    case 'union':
      return fuzzValue(pick(random, def.options as unknown[]), random, depth, nastiness);
    default:
      return nastyValue(random);
  }
}

/** An object for an object schema: each known field present or not, with a fuzzed value, sometimes an extra field. */
export function fuzzObject(
  schema: unknown,
  random: () => number,
  depth = 0,
  nastiness = 0.45,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shapeOf(schema, random)))
    if (nastiness === 0 || random() < 0.8) out[key] = fuzzValue(field, random, depth, nastiness);
  if (nastiness > 0 && random() < 0.2)
    out[pick(random, ['extra', '__proto__', 'userId', 'role'])] = nastyValue(random);
  return out;
}

/** The fields of an object schema (of one member, for a union of objects). */
export function shapeOf(schema: unknown, random: () => number): Record<string, unknown> {
  const def = unwrap(schema);
  const options = def?.type === 'union' ? (def.options as unknown[]) : [schema];
  return (unwrap(pick(random, options))?.shape ?? {}) as Record<string, unknown>;
}

/** The values every field is tried with, one field at a time, the others well-formed. */
export const SYSTEMATIC_VALUES: readonly unknown[] = [
  '\u0000',
  'a\u0000b',
  'tab\u0007bell',
  'x'.repeat(100_000),
  '\ud800',
  '99999999999999999999',
  '-1',
  2 ** 31,
  1e308,
  -1,
  null,
  { nested: '\u0000' },
  ['\u0000'],
  deepArray(2_000),
];

/** A query string's values are text: anything that is not a string is written as JSON. */
export function toQueryString(values: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    search.append(key, (text ?? '').slice(0, 20_000));
  }
  return search.toString();
}
