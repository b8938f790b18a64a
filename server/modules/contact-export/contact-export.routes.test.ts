import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escapeCell, EXPORT_COLUMNS } from '#domain/contacts/contact-csv.ts';
import { suggestMapping } from '#domain/contacts/contact-import.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { importFile } from '../../test/import-files.ts';

let ctx: TestContext;
let owner: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const exportAll = async (as: Session = owner, query = '') => {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/contacts/export${query}`,
    headers: asCookie(as),
  });
  expect(response.statusCode).toBe(200);
  return response;
};
const rowsOf = (body: string): string[][] => parse(body.replace(/^\uFEFF/, ''));

/** Cells a spreadsheet would run, or that look like our own escape. */
const HOSTILE = [
  '=1+1',
  '+SUM(A1)',
  '-2+3',
  '@cmd',
  '\tTab',
  '\rReturn',
  "'quoted",
  "''twice",
  '=HYPERLINK("x")',
];

describe('export', () => {
  it('writes the byte-order mark, the spec header, every cell double-quoted, and the file name', async () => {
    await insertContact(ctx.app, owner, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@engines.example',
      phone: '(555) 010-0001',
      company: 'Engines, "Analytical"',
      title: 'Countess',
      notes: 'Likes numbers, poetry,\nand machines',
      status: 'active',
      tags: ['vip', 'math'],
    });
    const response = await exportAll();
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="contacts_backup_2026-11-21.csv"',
    );
    const body = response.body;
    expect(
      body.startsWith(
        '\uFEFF"First Name","Last Name","Email","Phone","Company","Title","Notes","Status","Tags","Last Updated"\n',
      ),
    ).toBe(true);
    const [header, row] = rowsOf(body);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(row).toEqual([
      'Ada',
      'Lovelace',
      'ada@engines.example',
      '(555) 010-0001',
      'Engines, "Analytical"',
      'Countess',
      'Likes numbers; poetry;\nand machines',
      'active',
      'vip;math',
      '2026-11-21T09:00:00.000Z',
    ]);
    expect(body.split('\n')[1]).toMatch(/^"Ada","Lovelace",/);
  });

  it('never lets a cell run as a formula: the database escapes exactly as the domain rule says', async () => {
    for (const value of HOSTILE) {
      const { rows } = await ctx.db.admin.query<{ escaped: string }>('select csv_safe($1) as escaped', [
        value,
      ]);
      expect({ value, escaped: rows[0]!.escaped }).toEqual({ value, escaped: escapeCell(value) });
    }
    for (const [i, value] of HOSTILE.entries()) {
      await insertContact(ctx.app, owner, {
        firstName: `H${i}`,
        company: value,
        title: value,
        lastName: 'X',
      });
    }
    const [, ...rows] = rowsOf((await exportAll()).body);
    expect(rows).toHaveLength(HOSTILE.length);
    for (const row of rows) {
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('exports the current filter or a selection, and never another user’s contacts', async () => {
    const a = await insertContact(ctx.app, owner, { firstName: 'Alpha', status: 'active' });
    await insertContact(ctx.app, owner, { firstName: 'Beta', status: 'inactive' });
    const other = await createAccount(ctx, 'user');
    const foreign = await insertContact(ctx.app, other, { firstName: 'Secret' });

    const filtered = rowsOf((await exportAll(owner, '?scope=filter&status=active')).body);
    expect(filtered.slice(1).map((r) => r[0])).toEqual(['Alpha']);
    const selected = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/export',
      headers: asCookie(owner),
      payload: { ids: [a.id, foreign.id] },
    });
    expect(
      rowsOf(selected.body)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(['Alpha']);
    const all = rowsOf((await exportAll()).body)
      .slice(1)
      .map((r) => r[0]);
    expect(all.sort()).toEqual(['Alpha', 'Beta']);
    const none = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/export',
      headers: asCookie(owner),
      payload: { ids: [] },
    });
    expect(none.statusCode).toBe(400);
  });

  it('what we export, our import reads back without loss', async () => {
    const originals = [
      {
        firstName: 'Röund',
        lastName: 'Trip',
        email: 'rt@example.com',
        phone: '+1 (555) 010-0100',
        company: '=evil()',
        title: "'apostrophe",
        notes: 'no commas here',
        status: 'contacted' as const,
        tags: ['a', 'b c'],
      },
      {
        firstName: '@first',
        lastName: '-minus',
        email: 'm@example.com',
        phone: null,
        company: 'Quote "Co"',
        title: null,
        notes: 'line one\nline two',
        status: 'new' as const,
        tags: [],
      },
    ];
    for (const c of originals) await insertContact(ctx.app, owner, c);
    const file = (await exportAll()).rawPayload;
    const importer = await createAccount(ctx, 'user');
    const [header] = rowsOf(file.toString('utf8'));
    const mapping = suggestMapping(header!, header!.length);
    expect(mapping).toEqual([
      'firstName',
      'lastName',
      'email',
      'phone',
      'company',
      'title',
      'notes',
      'status',
      'tags',
      null,
    ]);
    const result = await importFile(ctx.app, importer, 'contacts_backup_2026-11-21.csv', file, {
      mapping,
      header: true,
    });
    expect(result.report).toMatchObject({ created: 2, skipped: 0 });
    const read = async (userId: string) =>
      (
        await ctx.db.admin.query(
          `select first_name, last_name, email, phone, company, title, notes, status, tags from contacts
           where user_id = $1 order by email`,
          [userId],
        )
      ).rows;
    expect(await read(importer.userId)).toEqual(await read(owner.userId));
  });
});
