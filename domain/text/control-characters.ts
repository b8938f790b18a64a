/**
 * Text that may be stored. Control characters (C0, DEL and C1) are never part of a name, an address, a phone number
 * or a note someone typed; they arrive from broken files, binary data read as text, or on purpose (U+0000 even
 * makes PostgreSQL refuse the whole statement). Tab, line feed and carriage return are ordinary text. Half of a
 * surrogate pair is not a character at all (JSON can carry one; PostgreSQL refuses it inside JSON). A request
 * carrying either is refused at the server's boundary; an imported file's cells lose their control characters.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const FORBIDDEN_CONTROL_MESSAGE =
  'Text may not contain control characters (such as U+0000) or broken Unicode characters.';

export const hasForbiddenControlCharacter = (text: string): boolean => FORBIDDEN.test(text);

/** Whether text may be stored as it is: no forbidden control character, no half of a surrogate pair. */
export const isStorableText = (text: string): boolean => !FORBIDDEN.test(text) && !LONE_SURROGATE.test(text);

/** The text with its forbidden control characters removed (imported cells). */
export const stripControlCharacters = (text: string): string =>
  FORBIDDEN.test(text) ? text.replace(FORBIDDEN_ALL, '') : text;

/**
 * Why a file's first part, decoded, is not a text file, or null when it reads as text. Binary data (a picture, a
 * program, random bytes, a workbook renamed .csv) shows as U+0000 characters or as many control characters; text
 * read as Windows-1252 because it is not valid UTF-8 shows, when it is really binary, as mostly accented letters.
 */
export function notTextReason(sample: string, readAsWindows1252: boolean): string | null {
  if (sample.length === 0) return null;
  let controls = 0;
  let high = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code === 0) return NOT_TEXT;
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) || (code >= 127 && code < 160))
      controls += 1;
    else if (code >= 128) high += 1;
  }
  if (controls / sample.length > 0.05) return NOT_TEXT;
  if (readAsWindows1252 && high / sample.length > 0.3) return NOT_TEXT;
  return null;
}

export const NOT_TEXT =
  'This file is not a text file: it holds binary data, so it is neither CSV nor vCard. Save your contacts as CSV from your spreadsheet program (or as vCard from your address book) and import that file.';
