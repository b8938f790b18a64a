import { sql } from 'kysely';
import type { QualifiedLead } from '#domain/reports/qualified-leads.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { afterKeyset, keysetPosition, pageOf } from '../../db/keyset.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A page of the user's qualified leads: qualified dispositions newest first, each with its
 * contact's details, optionally only those whose notes, or whose contact's name, company, e-mail or phone, contain
 * the text (any case). The two kinds of match are two queries, each on its own index (the trigram index over
 * qualified notes of migration 0022; the contacts' own, then their dispositions by contact), joined for the page:
 * one query with an OR between them would have to read every qualified disposition to find a rare word.
 */
export async function findQualifiedLeads(
  db: DbExecutor,
  userId: string,
  page: { search?: string | undefined; after?: string | undefined; limit: number },
): Promise<{ leads: QualifiedLead[]; next: string | null }> {
  const base = () => {
    let q = db
      .selectFrom('call_dispositions as d')
      .select(['d.id', 'd.contact_id', 'd.notes', 'd.called_at'])
      .select(keysetPosition('d.called_at', 'd.id').as('position'))
      .where('d.user_id', '=', userId)
      .where('d.is_qualified', '=', true)
      .orderBy('d.called_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(page.limit + 1);
    if (page.after) q = q.where(afterKeyset('d.called_at', 'd.id', page.after));
    return q;
  };
  const term = page.search?.toLowerCase();
  const pattern = term ? `%${escapeLike(term)}%` : '';
  const first = db
    .selectFrom((term ? base().where(sql<boolean>`d.notes_search like ${pattern}`) : base()).as('n'))
    .selectAll();
  const byContact = base().where(
    sql<boolean>`d.contact_id in (select id from contacts where user_id = ${userId} and search_text like ${pattern})`,
  );
  const matches = term
    ? first
        .union(db.selectFrom(byContact.as('c')).selectAll())
        .orderBy('called_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
    : first;

  const rows = await db
    .selectFrom(matches.as('m'))
    .leftJoin('contacts as ct', 'ct.id', 'm.contact_id')
    .select([
      'm.id',
      'm.contact_id',
      'm.notes',
      'm.called_at',
      'm.position',
      'ct.first_name',
      'ct.last_name',
      'ct.company',
      'ct.email',
      'ct.phone',
      'ct.website',
    ])
    .orderBy('m.called_at', 'desc')
    .orderBy('m.id', 'desc')
    .execute();
  const { shown, next } = pageOf(rows, page.limit);
  return {
    leads: shown.map((r) => ({
      dispositionId: r.id,
      contactId: r.contact_id,
      name: r.first_name === null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
      company: r.company,
      email: r.email,
      phone: r.phone,
      website: r.website,
      notes: r.notes,
      calledAt: r.called_at.toISOString(),
    })),
    next,
  };
}
