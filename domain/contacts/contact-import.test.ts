import { describe, expect, it } from 'vitest';
import {
  escapeCell,
  exportFileName,
  isOwnExportHeader,
  unescapeCell,
  EXPORT_COLUMNS,
} from './contact-csv.ts';
import {
  importFormatOf,
  ImportMappingSchema,
  isHeaderRow,
  suggestMapping,
  validateImportRow,
  type ImportField,
} from './contact-import.ts';

const MAPPING: ImportField[] = ['firstName', 'lastName', 'phone', 'email', 'company'];

describe('recognising a file', () => {
  it('reads the format from the file name', () => {
    expect(importFormatOf('Leads.CSV')).toBe('csv');
    expect(importFormatOf('book.xlsx')).toBe('xlsx');
    expect(importFormatOf('phone.vcf')).toBe('vcard');
    expect(importFormatOf('book.xls')).toBeNull();
    expect(importFormatOf('noextension')).toBeNull();
  });

  it("takes the first row as a header when it contains 'first', or names known columns", () => {
    expect(isHeaderRow(['First Name', 'Last Name'])).toBe(true);
    expect(isHeaderRow(['firstname', 'x'])).toBe(true);
    expect(isHeaderRow(['Name', 'E-mail', 'Phone number'])).toBe(true);
    expect(isHeaderRow(['Jane', 'Doe', '5550100001'])).toBe(false);
    expect(isHeaderRow(['Email', 'Jane'])).toBe(false);
  });

  it("matches columns by header name, each field once; without a header, uses the spec's order", () => {
    expect(
      suggestMapping(['E-mail Address', 'Given Name', 'Surname', 'Mobile', 'Organisation', 'Email'], 6),
    ).toEqual(['email', 'firstName', 'lastName', 'phone', 'company', null]);
    expect(suggestMapping(null, 7)).toEqual([
      'firstName',
      'lastName',
      'phone',
      'email',
      'company',
      null,
      null,
    ]);
  });

  it('refuses a mapping without a first name or with a field twice', () => {
    expect(ImportMappingSchema.safeParse(['firstName', 'email']).success).toBe(true);
    expect(ImportMappingSchema.safeParse(['lastName', 'email']).error?.issues[0]?.message).toBe(
      'Choose the column that holds the first name',
    );
    expect(ImportMappingSchema.safeParse(['firstName', 'email', 'email']).error?.issues[0]?.message).toBe(
      'Each field can be filled from one column only',
    );
  });
});

describe('a row', () => {
  const check = (cells: string[], mapping: (ImportField | null)[] = MAPPING) =>
    validateImportRow(cells, mapping, { ownExport: false });

  it('needs at least 2 columns, a first name, and a phone or an e-mail', () => {
    expect(check(['Jane'])).toEqual({ ok: false, reason: 'Fewer than 2 columns' });
    expect(check(['', 'Doe', '5550100001'])).toEqual({ ok: false, reason: 'First name is missing' });
    expect(check(['Jane', 'Doe', '', ''])).toEqual({
      ok: false,
      reason: 'Needs a phone number or an e-mail address',
    });
    expect(check(['Jane', 'Doe', '', 'jane@x.example']).ok).toBe(true);
    expect(check(['Jane', '', '555 010 0001']).ok).toBe(true);
  });

  it('strips quotes left around values, checks e-mails and lengths, and normalises the phone', () => {
    const result = check(['"Jane"', ' Doe ', '(555) 010-0001', 'jane@x.example', '"Acme, Inc"']);
    expect(result).toEqual({
      ok: true,
      contact: {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane@x.example',
        phone: '(555) 010-0001',
        phoneE164: '+15550100001',
        company: 'Acme, Inc',
        title: null,
        website: null,
        notes: null,
        status: null,
        tags: null,
        timeZone: null,
        state: null,
      },
    });
    expect(check(['Jane', 'Doe', '', 'jane@'])).toEqual({
      ok: false,
      reason: 'Invalid e-mail address: jane@',
    });
    expect(check(['J'.repeat(101), 'Doe', '5550100001'])).toEqual({
      ok: false,
      reason: 'First Name is longer than 100 characters',
    });
  });

  it('reads status and tags, and leaves unmapped fields alone (null), mapped empty ones empty', () => {
    const mapping: (ImportField | null)[] = ['firstName', 'email', 'status', 'tags', null, 'company'];
    expect(check(['Jo', 'jo@x.example', 'ACTIVE', 'vip; q4,vip', 'ignored', ''], mapping)).toMatchObject({
      ok: true,
      contact: { status: 'active', tags: ['vip', 'q4'], lastName: null, company: null },
    });
    expect(check(['Jo', 'jo@x.example', 'Lead', '', '', ''], mapping)).toMatchObject({
      ok: true,
      contact: { status: null, tags: null },
    });
  });

  it('undoes the spreadsheet-safety escape only for files of our own export', () => {
    const cells = ["'=SUM(A1)", 'Doe', '', 'x@y.example', "'+Co"];
    expect(validateImportRow(cells, MAPPING, { ownExport: true })).toMatchObject({
      ok: true,
      contact: { firstName: '=SUM(A1)', company: '+Co' },
    });
    expect(validateImportRow(cells, MAPPING, { ownExport: false })).toMatchObject({
      contact: { firstName: "'=SUM(A1)" },
    });
  });
});

describe('the export format', () => {
  it('escapes every cell a spreadsheet would run, and the escape undoes exactly', () => {
    for (const value of ['=1+1', '+1', '-1', '@x', '\tx', '\rx', "'x", "''x", "'", 'plain', '', '1-2']) {
      expect(unescapeCell(escapeCell(value))).toBe(value);
      expect(escapeCell(value)).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(escapeCell('=1+1')).toBe("'=1+1");
    expect(escapeCell('1-2')).toBe('1-2');
  });

  it('names the file by the day, and recognises its own header', () => {
    expect(exportFileName(new Date(2026, 0, 5, 23, 59))).toBe('contacts_backup_2026-01-05.csv');
    expect(isOwnExportHeader([...EXPORT_COLUMNS])).toBe(true);
    expect(isOwnExportHeader(['\uFEFFFirst Name', ...EXPORT_COLUMNS.slice(1)])).toBe(true);
    expect(isOwnExportHeader(['First Name', 'Last Name'])).toBe(false);
  });
});

describe('a contact’s own time zone and state from a file', () => {
  const mapping: (ImportField | null)[] = ['firstName', 'phone', 'timeZone', 'state'];
  it.each([
    [['Ann', '3032961237', 'America/Denver', 'CO'], 'America/Denver', 'CO'],
    [['Ann', '3032961237', 'America/Denver', 'colorado'], 'America/Denver', 'CO'],
    [['Ann', '3032961237', 'Mars/Olympus', 'Ontario'], null, null],
    [['Ann', '3032961237', '', ''], null, null],
  ])('%j → %s, %s (a value we cannot read is left out)', (cells, timeZone, state) => {
    expect(validateImportRow(cells, mapping, { ownExport: false })).toMatchObject({
      ok: true,
      contact: { timeZone, state },
    });
  });

  it('matches time_zone and state columns by their header', () => {
    expect(suggestMapping(['First Name', 'Phone', 'Time Zone', 'State'], 4)).toEqual([
      'firstName',
      'phone',
      'timeZone',
      'state',
    ]);
  });
});
