import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  buildVcards,
  buildWorkbook,
  buildZipBomb,
  importFile,
  previewFile,
} from '../../test/import-files.ts';

let ctx: TestContext;
let owner: Session;

beforeEach(async () => {
  ctx = await createTestApp({ importMaxBytes: 2 * 1024 * 1024 });
  owner = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const HEADER_MAPPING = ['firstName', 'lastName', 'phone', 'email', 'company'];
const contactsOf = async (userId: string) =>
  (
    await ctx.db.admin.query(
      `select first_name, last_name, email, phone, phone_e164, company, title, status, tags, notes
       from contacts where user_id = $1 order by created_at desc, id desc`,
      [userId],
    )
  ).rows;

describe('importing a CSV', () => {
  it('imports valid rows, skips a bad row in the middle with its reason, and queues the new contacts', async () => {
    const csv = [
      'First Name,Last Name,Phone,Email,Company',
      'Ann,Able,(555) 010-0001,ann@able.example,Able Inc',
      ',Nameless,(555) 010-0002,,',
      'Bob,Baker,,not-an-email,',
      'Cid,Cole,,,Cole Co',
      '"Dee","Dunn","555-010-0004","dee@dunn.example","Dunn, Ltd"',
    ].join('\r\n');
    const result = await importFile(ctx.app, owner, 'leads.csv', csv, {
      mapping: HEADER_MAPPING,
      header: true,
    });
    expect(result.error).toBeNull();
    expect(result.report).toMatchObject({ status: 'done', totalRows: 5, created: 2, updated: 0, skipped: 3 });
    expect(result.report!.skippedRows).toEqual([
      { row: 3, reason: 'First name is missing' },
      { row: 4, reason: 'Invalid e-mail address: not-an-email' },
      { row: 5, reason: 'Needs a phone number or an e-mail address' },
    ]);
    const rows = await contactsOf(owner.userId);
    expect(rows.map((r) => [r.first_name, r.company, r.phone_e164])).toEqual([
      ['Ann', 'Able Inc', '+15550100001'],
      ['Dee', 'Dunn, Ltd', '+15550100004'],
    ]);
    const queued = await ctx.db.admin.query(
      `select count(*)::int as n from queue_members m join power_dialer_queues q on q.id = m.queue_id
       where q.user_id = $1 and q.queue_id = 'default-all-contacts'`,
      [owner.userId],
    );
    expect(queued.rows[0].n).toBe(2);
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts?search=dunn',
      headers: asCookie(owner),
    });
    expect(list.json().contacts.map((c: { firstName: string }) => c.firstName)).toEqual(['Dee']);
  });

  it('reads a contact’s own time zone and state, which the consent gate then uses, and updates them on a re-import', async () => {
    const csv = [
      'First Name,Phone,Time Zone,State',
      'Ann,(303) 296-1237,America/New_York,fl',
      'Bob,(212) 555-0127,,',
    ].join('\n');
    const mapping = ['firstName', 'phone', 'timeZone', 'state'];
    expect(
      (await importFile(ctx.app, owner, 'states.csv', csv, { mapping, header: true })).report,
    ).toMatchObject({
      created: 2,
    });
    const stored = await ctx.db.admin.query(
      'select first_name, time_zone, state from contacts where user_id = $1 order by first_name',
      [owner.userId],
    );
    expect(stored.rows).toEqual([
      { first_name: 'Ann', time_zone: 'America/New_York', state: 'FL' },
      { first_name: 'Bob', time_zone: null, state: null },
    ]);
    const again = ['First Name,Phone,Time Zone,State', 'Bob,(212) 555-0127,America/Chicago,OK'].join('\n');
    expect(
      (await importFile(ctx.app, owner, 'again.csv', again, { mapping, header: true, duplicates: 'update' }))
        .report,
    ).toMatchObject({ updated: 1 });
    const bob = await ctx.db.admin.query(
      `select c.time_zone, c.state, h.changed_fields from contacts c join contact_history h on h.contact_id = c.id
       where c.user_id = $1 and c.first_name = 'Bob'`,
      [owner.userId],
    );
    expect(bob.rows).toEqual([
      { time_zone: 'America/Chicago', state: 'OK', changed_fields: ['timeZone', 'state'] },
    ]);
  });

  it("reads a headerless file in the spec's column order, and a semicolon file in Windows-1252", async () => {
    const plain = await importFile(
      ctx.app,
      owner,
      'plain.csv',
      'Eve,Evans,5550100005,eve@evans.example,Evans\n',
      {
        mapping: HEADER_MAPPING,
        header: false,
      },
    );
    expect(plain.report?.created).toBe(1);
    const latin = iconv.encode(
      'Vorname;Nachname;Telefon;E-Mail;Firma\nJosé;Müller;+49 30 1234567;;Café Größe\n',
      'win1252',
    );
    const preview = await previewFile(ctx.app, owner, 'export.csv', latin);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().rows[0]).toEqual(['José', 'Müller', '+49 30 1234567', '', 'Café Größe']);
    const result = await importFile(ctx.app, owner, 'export.csv', latin, {
      mapping: HEADER_MAPPING,
      header: true,
    });
    expect(result.report?.created).toBe(1);
    expect(await contactsOf(owner.userId)).toContainEqual(
      expect.objectContaining({ first_name: 'José', last_name: 'Müller', company: 'Café Größe' }),
    );
  });

  it('skips repeats within the file and existing contacts, or updates them with history when asked', async () => {
    const existing = await insertContact(ctx.app, owner, {
      firstName: 'Gus',
      lastName: 'Grant',
      email: 'gus@grant.example',
      company: 'Old Co',
      phone: null,
    });
    const csv = [
      'First Name,Last Name,Phone,Email,Company',
      'Gus,Grant,5550100007,GUS@grant.example,New Co',
      'Hal,Hart,5550100008,,',
      'Hal,Hartley,(555) 010-0008,,',
      'Ivy,Irwin,,ivy@irwin.example,',
      'Ivy,Irwin,,IVY@irwin.example,',
    ].join('\n');
    const skip = await importFile(ctx.app, owner, 'a.csv', csv, { mapping: HEADER_MAPPING, header: true });
    expect(skip.report).toMatchObject({ created: 2, updated: 0, skipped: 3 });
    expect(skip.report!.skippedRows).toEqual([
      { row: 2, reason: 'Already in your contacts (same e-mail)' },
      { row: 4, reason: 'Same phone number as row 3 of this file' },
      { row: 6, reason: 'Same e-mail as row 5 of this file' },
    ]);

    const update = await importFile(ctx.app, owner, 'a.csv', csv, {
      mapping: HEADER_MAPPING,
      header: true,
      duplicates: 'update',
    });
    expect(update.report).toMatchObject({ created: 0, updated: 1, skipped: 4 });
    expect(update.report!.skippedRows.map((r) => r.reason)).toEqual([
      'Already up to date',
      'Same phone number as row 3 of this file',
      'Already up to date',
      'Same e-mail as row 5 of this file',
    ]);
    const detail = await ctx.app.inject({
      method: 'GET',
      url: `/api/contacts/${existing.id}`,
      headers: asCookie(owner),
    });
    expect(detail.json().contact).toMatchObject({
      company: 'New Co',
      phone: '5550100007',
      phoneE164: '+15550100007',
    });
    expect(detail.json().history[0]).toMatchObject({
      changedFields: ['email', 'phone', 'company'],
      previousValues: { email: 'gus@grant.example', phone: null, company: 'Old Co' },
      newValues: { email: 'GUS@grant.example', phone: '5550100007', company: 'New Co' },
    });
  });

  it('running the same file again adds no duplicates, and completes what an interrupted run left', async () => {
    const csv = 'First Name,Email\nJo,jo@one.example\nKai,kai@two.example\n';
    const options = { mapping: ['firstName', 'email'], header: true };
    expect((await importFile(ctx.app, owner, 'b.csv', csv, options)).report?.created).toBe(2);
    // As if the first run had stopped before its queue step: the second run puts them in the default queue.
    await ctx.db.admin.query('delete from queue_members where user_id = $1', [owner.userId]);
    const again = await importFile(ctx.app, owner, 'b.csv', csv, options);
    expect(again.report).toMatchObject({ created: 0, skipped: 2 });
    expect(await contactsOf(owner.userId)).toHaveLength(2);
    const queued = await ctx.db.admin.query(
      'select count(*)::int as n from queue_members where user_id = $1',
      [owner.userId],
    );
    expect(queued.rows[0].n).toBe(2);
  });

  it('reports an unreadable record and goes on with the rows after it', async () => {
    const csv = 'First Name,Email\nLou,lou@x.example\nMia,"mia@x.example\n';
    const result = await importFile(ctx.app, owner, 'broken.csv', csv, {
      mapping: ['firstName', 'email'],
      header: true,
    });
    expect(result.report?.created).toBe(1);
    expect(result.report?.skippedRows[0]?.reason).toMatch(/^Unreadable row/);
  });

  it('refuses files it cannot use, with a clear message, saving nothing', async () => {
    const options = { mapping: HEADER_MAPPING, header: true };
    const wrongType = await importFile(ctx.app, owner, 'photo.png', 'x,y', options);
    expect(wrongType).toMatchObject({
      status: 415,
      error: 'Invalid file type: Please select a CSV, Excel (.xlsx) or vCard (.vcf) file',
    });
    const empty = await importFile(ctx.app, owner, 'empty.csv', '', options);
    expect(empty).toMatchObject({ status: 400, error: 'No data provided' });
    const headerOnly = await importFile(ctx.app, owner, 'h.csv', 'First Name,Email\n', options);
    expect(headerOnly.error).toBe('No data provided');
    const noneValid = await importFile(ctx.app, owner, 'n.csv', 'First Name,Email\n,\nX,\n', options);
    expect(noneValid.error).toBe('No valid contacts found');
    const tooBig = await importFile(ctx.app, owner, 'big.csv', Buffer.alloc(3 * 1024 * 1024, 0x41), options);
    expect(tooBig).toMatchObject({ status: 413, error: 'The file is larger than the 2 MB limit.' });
    const badMapping = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/imports?fileName=a.csv&header=true&mapping=%5Bnope',
      headers: { ...asCookie(owner), 'content-type': 'application/octet-stream' },
      payload: Buffer.from('a,b'),
    });
    expect(badMapping.statusCode).toBe(400);
    expect(await contactsOf(owner.userId)).toEqual([]);
    const imports = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts/imports',
      headers: asCookie(owner),
    });
    expect(imports.json().imports.every((i: { status: string }) => i.status === 'failed')).toBe(true);
  });
});

describe('imports started at once', () => {
  it('runs one import at a time per account: the same file sent twice at once creates each contact once', async () => {
    const csv = [
      'First Name,Last Name,Phone,Email,Company',
      ...Array.from({ length: 500 }, (_, i) => `P${i},Q,,p${i}@twice.example,Co`),
    ].join('\n');
    const both = await Promise.all(
      [1, 2].map(() =>
        importFile(ctx.app, owner, 'twice.csv', csv, { mapping: HEADER_MAPPING, header: true }),
      ),
    );
    expect((await contactsOf(owner.userId)).length).toBe(500);
    const refused = both.filter((r) => r.error);
    expect(refused.length).toBeLessThanOrEqual(1);
    for (const r of refused) expect(r.error).toMatch(/Another import is still running/);
  });
});

describe('files that are not text', () => {
  const seeded = (seed: number, size: number) => {
    let state = seed;
    return Buffer.from(
      Array.from({ length: size }, () => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state >> 16;
      }),
    );
  };

  it('refuses 20 files of random bytes named .csv or .vcf, saving nothing and saying why', async () => {
    for (let i = 0; i < 20; i++) {
      const name = i % 4 === 3 ? `noise-${i}.vcf` : `noise-${i}.csv`;
      const bytes = seeded(i + 1, 48 * 1024);
      const preview = await previewFile(ctx.app, owner, name, bytes);
      expect(preview.statusCode, name).toBe(400);
      expect(preview.json().message).toMatch(/not a text file/);
      const result = await importFile(ctx.app, owner, name, bytes, {
        mapping: HEADER_MAPPING,
        header: false,
      });
      expect(result.error, name).toMatch(/not a text file/);
    }
    expect(await contactsOf(owner.userId)).toEqual([]);
    const imports = await ctx.db.admin.query(
      `select status, created from contact_imports where user_id = $1`,
      [owner.userId],
    );
    expect(imports.rows.every((r) => r.status === 'failed' && r.created === 0)).toBe(true);
  });

  it('keeps control characters out of stored fields while importing the text around them', async () => {
    const csv =
      'First Name,Last Name,Phone,Email,Company\nAn\u0007n,Able,(555)\u001b 010-0001,ann@able.example,Able\u0085 Inc\n';
    const result = await importFile(ctx.app, owner, 'bells.csv', csv, {
      mapping: HEADER_MAPPING,
      header: true,
    });
    expect(result.report).toMatchObject({ status: 'done', created: 1 });
    const [row] = await contactsOf(owner.userId);
    expect([row.first_name, row.phone, row.company]).toEqual(['Ann', '(555) 010-0001', 'Able Inc']);
  });
});

describe('importing a workbook', () => {
  it('imports an XLSX with a mapping of its own, numbers and all', async () => {
    const file = await buildWorkbook([
      ['Company', 'Given name', 'Surname', 'Mobile', 'Job'],
      ['Nova', 'Nia', 'Nash', 5550100009, 'CTO'],
      ['Orb', 'Otto', 'Olsen', null, 'CEO'],
    ]);
    const preview = await previewFile(ctx.app, owner, 'people.xlsx', file);
    expect(preview.json()).toMatchObject({
      format: 'xlsx',
      header: ['Company', 'Given name', 'Surname', 'Mobile', 'Job'],
      mapping: ['company', 'firstName', 'lastName', 'phone', null],
    });
    const result = await importFile(ctx.app, owner, 'people.xlsx', file, {
      mapping: ['company', 'firstName', 'lastName', 'phone', 'title'],
      header: true,
    });
    expect(result.report).toMatchObject({ format: 'xlsx', created: 1, skipped: 1 });
    expect(result.report!.skippedRows).toEqual([
      { row: 3, reason: 'Needs a phone number or an e-mail address' },
    ]);
    expect((await contactsOf(owner.userId))[0]).toMatchObject({
      first_name: 'Nia',
      phone: '5550100009',
      title: 'CTO',
      company: 'Nova',
    });
  });

  it('refuses an archive that would inflate far beyond its size, and a file that is no workbook', async () => {
    const bomb = await buildZipBomb(120);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const options = { mapping: HEADER_MAPPING, header: true };
    const result = await importFile(ctx.app, owner, 'bomb.xlsx', bomb, options);
    expect(result.error).toBe(
      'This workbook would inflate far beyond its size when opened, so it was not read.',
    );
    const fake = await importFile(ctx.app, owner, 'fake.xlsx', 'First Name,Email\nA,a@b.example', options);
    expect(fake.error).toBe('This file is not a valid Excel workbook (.xlsx).');
    expect(await contactsOf(owner.userId)).toEqual([]);
  });
});

describe('importing vCards', () => {
  it('reads 2.1 quoted-printable Latin-1, folded 3.0 and 4.0 cards', async () => {
    const file = buildVcards();
    const preview = await previewFile(ctx.app, owner, 'phone.vcf', file);
    expect(preview.json().mapping).toEqual([
      'firstName',
      'lastName',
      'phone',
      'email',
      'company',
      'title',
      'website',
      'notes',
      'tags',
    ]);
    const result = await importFile(ctx.app, owner, 'phone.vcf', file, {
      mapping: preview.json().mapping,
      header: true,
    });
    expect(result.report).toMatchObject({ format: 'vcard', created: 2, skipped: 1 });
    expect(result.report!.skippedRows).toEqual([
      { row: 4, reason: 'Needs a phone number or an e-mail address' },
    ]);
    const rows = await contactsOf(owner.userId);
    expect(rows).toEqual([
      expect.objectContaining({
        first_name: 'Jürgen',
        last_name: 'Müller',
        phone_e164: '+491701234567',
        company: 'Bäckerei',
        notes: 'Grüße an die Familie',
      }),
      expect.objectContaining({
        first_name: 'Zoë',
        last_name: 'Saldana',
        email: 'zoe@example.com',
        title: 'Head of Partnerships',
        tags: ['vip', 'film'],
      }),
    ]);
  });
});

describe('imports and other users', () => {
  it("keeps imported rows and the import's report to the importer", async () => {
    const other = await createAccount(ctx, 'user');
    const result = await importFile(ctx.app, owner, 'c.csv', 'First Name,Email\nPat,pat@x.example\n', {
      mapping: ['firstName', 'email'],
      header: true,
    });
    const id = result.report!.id;
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/contacts', headers: asCookie(other) })).json()
        .contacts,
    ).toEqual([]);
    const foreign = await ctx.app.inject({
      method: 'GET',
      url: `/api/contacts/imports/${id}`,
      headers: asCookie(other),
    });
    expect(foreign.statusCode).toBe(404);
    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/api/contacts/imports/${id}`,
      headers: asCookie(owner),
    });
    expect(mine.json().report).toMatchObject({ fileName: 'c.csv', created: 1 });
  });
});
