import type { Readable } from 'node:stream';
import { notTextReason } from '#domain/text/control-characters.ts';
import { createDecoder, decodeBytes, detectEncoding } from './text-encoding.ts';
import { ImportFileError, type FileRow } from './file-rows.ts';

/** The columns a vCard becomes; the header row names them so the usual mapping matches them. */
export const VCARD_COLUMNS = [
  'First Name',
  'Last Name',
  'Phone',
  'Email',
  'Company',
  'Title',
  'Website',
  'Notes',
  'Tags',
];

type Property = { name: string; params: Map<string, string[]>; value: string };

const BINARY = new Set(['PHOTO', 'LOGO', 'SOUND', 'KEY']);
const MAX_CARD_LINES = 2_000;

/** Lines of a text stream, decoded in its detected encoding, without their line breaks; binary data is refused. */
async function* textLines(input: Readable): AsyncGenerator<string> {
  let decoder: ReturnType<typeof createDecoder> | null = null;
  let rest = '';
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let text: string;
    if (decoder) text = decoder.write(chunk);
    else {
      const encoding = detectEncoding(chunk);
      decoder = createDecoder(encoding);
      text = decoder.write(chunk);
      const notText = notTextReason(text, encoding === 'windows-1252');
      if (notText) throw new ImportFileError(notText);
    }
    const parts = (rest + text).split(/\r?\n/);
    rest = parts.pop() ?? '';
    yield* parts;
  }
  rest += decoder?.end() ?? '';
  if (rest) yield rest;
}

/** Folded lines joined (RFC 6350 section 3.2), and vCard 2.1's quoted-printable soft breaks (a line ending in '='). */
async function* unfoldedLines(input: Readable): AsyncGenerator<string> {
  let current: string | null = null;
  for await (const raw of textLines(input)) {
    const line = raw.replace(/^\uFEFF/, '');
    if (current !== null && /QUOTED-PRINTABLE/i.test(current.split(':')[0] ?? '') && current.endsWith('=')) {
      current = current.slice(0, -1) + line; // a soft line break: the next line is data as it stands
    } else if (current !== null && /^[ \t]/.test(line)) {
      current += line.slice(1);
    } else {
      if (current !== null) yield current;
      current = line;
    }
  }
  if (current !== null) yield current;
}

function parseProperty(line: string): Property | null {
  const colon = line.search(/:(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  if (colon <= 0) return null;
  const [rawName = '', ...rawParams] = line.slice(0, colon).split(';');
  const name = rawName.replace(/^.*\./, '').toUpperCase();
  const params = new Map<string, string[]>();
  for (const p of rawParams) {
    const [key, value] = p.includes('=')
      ? [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]
      : ['TYPE', p];
    const list = value
      .replace(/^"|"$/g, '')
      .split(',')
      .map((v) => v.trim());
    params.set(key.toUpperCase(), [...(params.get(key.toUpperCase()) ?? []), ...list]);
  }
  return { name, params, value: line.slice(colon + 1) };
}

/** Quoted-printable (RFC 2045) to bytes. */
function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const hex = text.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(ch, 'latin1'));
  }
  return Buffer.from(bytes);
}

/** The property's text: transfer encoding and charset undone (vCard 2.1 from phones), escapes undone. */
function textOf(property: Property): string {
  const encoding = property.params.get('ENCODING')?.[0]?.toUpperCase();
  const charset = property.params.get('CHARSET')?.[0];
  let value = property.value;
  if (encoding === 'QUOTED-PRINTABLE' || encoding === 'QP')
    value = decodeBytes(decodeQuotedPrintable(value), charset);
  else if (encoding === 'B' || encoding === 'BASE64')
    value = decodeBytes(Buffer.from(value, 'base64'), charset);
  return value;
}

/** Splits on unescaped separators, then undoes \n \, \; \\ (RFC 6350 section 3.4). */
function components(value: string, separator: ';' | ','): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\' && i + 1 < value.length) {
      const next = value[++i]!;
      current += next === 'n' || next === 'N' ? '\n' : next;
    } else if (ch === separator) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

const preferred = (props: Property[], prefer: string[]) =>
  props.find((p) => (p.params.get('TYPE') ?? []).some((t) => prefer.includes(t.toLowerCase()))) ?? props[0];

function cardToCells(props: Property[]): string[] {
  const all = (name: string) => props.filter((p) => p.name === name);
  const one = (name: string) => {
    const p = all(name)[0];
    return p ? (components(textOf(p), ';')[0] ?? '') : '';
  };
  const n = all('N')[0];
  let [last = '', first = ''] = n ? components(textOf(n), ';') : [];
  if (!first && !last) {
    const full = one('FN');
    const space = full.lastIndexOf(' ');
    [first, last] = space > 0 ? [full.slice(0, space), full.slice(space + 1)] : [full, ''];
  }
  const tel = preferred(all('TEL'), ['pref', 'cell', 'mobile']);
  const email = preferred(all('EMAIL'), ['pref', 'internet']);
  const tags = all('CATEGORIES').flatMap((p) => components(textOf(p), ','));
  return [
    first,
    last,
    tel ? (components(textOf(tel), ';')[0] ?? '') : '',
    email ? (components(textOf(email), ';')[0] ?? '') : '',
    one('ORG'),
    one('TITLE'),
    one('URL'),
    all('NOTE')
      .map((p) => components(textOf(p), ';').join(';'))
      .join('\n'),
    tags.filter(Boolean).join(';'),
  ];
}

/**
 * Rows of a vCard file (.vcf, versions 2.1, 3.0 and 4.0), one per card, after a header row of VCARD_COLUMNS.
 * Streamed card by card; pictures and other binary properties are dropped as they are read.
 */
export async function* readVcardRows(input: Readable): AsyncGenerator<FileRow> {
  yield { row: 1, cells: VCARD_COLUMNS };
  let card: Property[] | null = null;
  let lines = 0;
  let row = 1;
  for await (const line of unfoldedLines(input)) {
    const upper = line.trim().toUpperCase();
    if (upper === 'BEGIN:VCARD') {
      card = [];
      lines = 0;
      continue;
    }
    if (upper === 'END:VCARD') {
      if (card) yield { row: ++row, cells: cardToCells(card) };
      card = null;
      continue;
    }
    if (!card || ++lines > MAX_CARD_LINES) continue;
    const property = parseProperty(line);
    if (property && !BINARY.has(property.name)) card.push(property);
  }
}
