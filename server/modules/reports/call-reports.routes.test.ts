import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CALL_REPORT_COLUMNS } from '#domain/reports/call-report.schema.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const get = (url: string, as: Session = rep) => ctx.app.inject({ method: 'GET', url, headers: asCookie(as) });

/** A finished call of `who`, as the calling module records one, with the notes its disposition saved. */
async function callOf(
  who: Session,
  values: {
    contactId?: string | null;
    status: string;
    notes?: string | null;
    minutesAgo: number;
    direction?: 'inbound' | 'outbound';
  },
): Promise<string> {
  const { rows } = await ctx.db.admin.query<{ id: string }>(
    `insert into calls (user_id, contact_id, request_id, provider, provider_call_id, from_number, to_number, status,
       notes, started_at, updated_at, direction)
     values ($1, $2, substr(md5(random()::text), 1, 8), 'simulator', md5(random()::text), '+15550100000',
       '+15550100017', $3, $4, now() - make_interval(mins => $5), now(), $6)
     returning id`,
    [
      who.userId,
      values.contactId ?? null,
      values.status,
      values.notes ?? null,
      values.minutesAgo,
      values.direction ?? 'outbound',
    ],
  );
  return rows[0]!.id;
}

describe('call reports (/reports/dashboard)', () => {
  it("lists the user's calls newest first with their outcome, filters by contact id, notes and outcome, and pages", async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann' });
    const older = await callOf(rep, {
      contactId: ann.id,
      status: 'completed',
      notes: 'Budget next spring',
      minutesAgo: 30,
    });
    await ctx.db.admin.query(
      `insert into call_dispositions (contact_id, user_id, disposition, notes, call_id) values ($1, $2, 'not-interested', 'Budget next spring', $3)`,
      [ann.id, rep.userId, older],
    );
    const newer = await callOf(rep, { status: 'no-answer', minutesAgo: 5 });
    const stranger = await createAccount(ctx, 'user');
    await callOf(stranger, { status: 'completed', notes: 'secret deal', minutesAgo: 1 });

    const all = (await get('/api/call-reports')).json();
    expect(all.reports).toEqual([
      {
        callId: newer,
        contactId: null,
        projectId: null,
        outcome: 'no-answer',
        direction: 'outbound',
        notes: null,
        createdAt: expect.any(String),
      },
      expect.objectContaining({
        callId: older,
        contactId: ann.id,
        outcome: 'not-interested',
        notes: 'Budget next spring',
      }),
    ]);
    expect(all.next).toBeNull();
    const ids = async (search: string) =>
      (
        (await get(`/api/call-reports?search=${encodeURIComponent(search)}`)).json().reports as {
          callId: string;
        }[]
      ).map((r) => r.callId);
    expect(await ids('not interested')).toEqual([older]);
    expect(await ids('NOT-INTERESTED')).toEqual([older]);
    expect(await ids('budget')).toEqual([older]);
    expect(await ids(ann.id.slice(0, 8))).toEqual([older]);
    expect(await ids('answer')).toEqual([newer]);
    expect(await ids('secret')).toEqual([]);
    expect(await ids('100%_')).toEqual([]);

    const first = (await get('/api/call-reports?limit=1')).json();
    expect(first.reports.map((r: { callId: string }) => r.callId)).toEqual([newer]);
    const second = (await get(`/api/call-reports?limit=1&after=${encodeURIComponent(first.next)}`)).json();
    expect(second).toEqual({ reports: [expect.objectContaining({ callId: older })], next: null });
    expect((await get('/api/call-reports?after=nonsense')).statusCode).toBe(400);
    expect((await get(`/api/call-reports?search=${'x'.repeat(201)}`)).statusCode).toBe(400);
  });

  it('shows a live answer no rep took as abandoned, in the list, the filter and the export, until a disposition is saved', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann' });
    const abandoned = await callOf(rep, { contactId: ann.id, status: 'completed', minutesAgo: 10 });
    await ctx.db.admin.query(
      `update calls set abandoned_at = started_at + interval '3 seconds' where id = $1`,
      [abandoned],
    );
    const answered = await callOf(rep, { status: 'completed', minutesAgo: 5 });

    const outcomes = (await get('/api/call-reports'))
      .json()
      .reports.map((r: { outcome: string }) => r.outcome);
    expect(outcomes).toEqual(['completed', 'abandoned']);
    const found = (await get('/api/call-reports?search=abandoned')).json().reports;
    expect(found.map((r: { callId: string }) => r.callId)).toEqual([abandoned]);
    const file = await get('/api/call-reports/export?search=abandoned');
    expect(file.body.slice(1).trimEnd().split('\n')[1]).toContain(`,"abandoned",`);

    await ctx.db.admin.query(
      `insert into call_dispositions (contact_id, user_id, disposition, call_id) values ($1, $2, 'callback', $3)`,
      [ann.id, rep.userId, abandoned],
    );
    expect((await get('/api/call-reports?search=abandoned')).json().reports).toEqual([]);
    expect(answered).not.toBe(abandoned);
  });

  it('shows a call that came in as incoming, and one nobody answered as missed, in the list, the filter and the export', async () => {
    const missed = await callOf(rep, { status: 'no-answer', minutesAgo: 10, direction: 'inbound' });
    const taken = await callOf(rep, { status: 'completed', minutesAgo: 5, direction: 'inbound' });
    await ctx.db.admin.query(`update calls set answered_at = started_at where id = $1`, [taken]);
    const unanswered = await callOf(rep, { status: 'no-answer', minutesAgo: 1 });
    const reports = (await get('/api/call-reports')).json<{
      reports: { callId: string; outcome: string; direction: string }[];
    }>().reports;
    expect(reports.map((r) => [r.callId, r.outcome, r.direction])).toEqual([
      [unanswered, 'no-answer', 'outbound'],
      [taken, 'completed', 'inbound'],
      [missed, 'missed', 'inbound'],
    ]);
    expect((await get('/api/call-reports?search=missed')).json().reports).toEqual([
      expect.objectContaining({ callId: missed }),
    ]);
    const file = await get('/api/call-reports/export?search=missed');
    expect(file.body.slice(1).trimEnd().split('\n')[1]).toMatch(/,"missed",.*,"inbound"$/);
  });

  it('exports call_reports.csv: byte-order mark, the spec’s columns, comma, quotes, formula-safe, only the user’s calls', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann' });
    const risky = await callOf(rep, {
      contactId: ann.id,
      status: 'completed',
      notes: '=HYPERLINK("x", "y")',
      minutesAgo: 3,
    });
    const plain = await callOf(rep, { status: 'busy', notes: 'Call back, after lunch', minutesAgo: 9 });
    const stranger = await createAccount(ctx, 'user');
    await callOf(stranger, { status: 'completed', notes: 'secret deal', minutesAgo: 1 });

    const file = await get('/api/call-reports/export');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="call_reports.csv"');
    expect(file.body.startsWith('\uFEFF')).toBe(true);
    const lines = file.body.slice(1).trimEnd().split('\n');
    expect(lines[0]).toBe(CALL_REPORT_COLUMNS.map((c) => `"${c}"`).join(','));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(
        `^"${risky}","${ann.id}","","completed","'=HYPERLINK\\(""x"", ""y""\\)","\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z","outbound"$`,
      ),
    );
    expect(lines[2]).toMatch(new RegExp(`^"${plain}","","","busy","Call back, after lunch",`));
    expect(file.body).not.toContain('secret');

    const filtered = await get('/api/call-reports/export?search=lunch');
    expect(filtered.body.slice(1).trimEnd().split('\n')).toHaveLength(2);
    expect((await get('/api/call-reports/export', stranger)).body).toContain('secret deal');
  });
});
