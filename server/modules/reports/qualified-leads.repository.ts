import { sql } from 'kysely';
import type { QualifiedLead } from '#domain/reports/qualified-leads.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { afterKeyset, keysetPosition } from '../../db/keyset.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A page of the user's qualified leads (spec part 2 §2.9, §7.1): qualified dispositions newest first, each with its
 * contact's details, optionally only those whose contact's name, company or e-mail, or whose notes, contain the text
 * (any case). The notes are searched through a trigram index over qualified dispositions (migration 0022), the
 * contacts through theirs (migration 0002), so a rare word stays fast among a million dispositions.
 */
export async function findQualifiedLeads(
  db: DbExecutor,
  userId: string,
  page: { search?: string | undefined; after?: string | undefined; limit: number },
): Promise<{ leads: QualifiedLead[]; next: string | null }> {
  let query = db
    .selectFrom('call_dispositions as d')
    .leftJoin('contacts as ct', 'ct.id', 'd.contact_id')
    .select([
      'd.id',
      'd.contact_id',
      'd.notes',
      'd.called_at',
      'ct.first_name',
      'ct.last_name',
      'ct.company',
      'ct.email',
      'ct.phone',
      'ct.website',
    ])
    .select(keysetPosition('d.called_at', 'd.id').as('position'))
    .where('d.user_id', '=', userId)
    .where('d.is_qualified', '=', true)
    .orderBy('d.called_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(page.limit + 1);
  const term = page.search?.toLowerCase();
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    query = query.where(
      sql<boolean>`(lower(d.notes) like ${pattern} or d.contact_id in (
        select id from contacts where user_id = ${userId} and search_text like ${pattern}))`,
    );
  }
  if (page.after) query = query.where(afterKeyset('d.called_at', 'd.id', page.after));
  const rows = await query.execute();
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
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
    next: rows.length > page.limit && last ? last.position : null,
  };
}
