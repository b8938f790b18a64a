import { sql } from 'kysely';
import type { EmailTemplate } from '#domain/email/email.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';

const COLUMNS = ['id', 'name', 'subject', 'content', 'is_default', 'updated_at'] as const;

type Row = {
  id: string;
  name: string;
  subject: string;
  content: string;
  is_default: boolean;
  updated_at: Date;
};
const toTemplate = (r: Row): EmailTemplate => ({
  id: r.id,
  name: r.name,
  subject: r.subject,
  content: r.content,
  isDefault: r.is_default,
  updatedAt: r.updated_at.toISOString(),
});

/** Templates ordered by name (email_templates). */
export async function findTemplates(db: DbExecutor, userId: string): Promise<EmailTemplate[]> {
  const rows = await db
    .selectFrom('email_templates')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy(sql`lower(name)`)
    .execute();
  return rows.map(toTemplate);
}

export async function findTemplate(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<EmailTemplate | undefined> {
  const row = await db
    .selectFrom('email_templates')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toTemplate(row) : undefined;
}

export type TemplateValues = { name: string; subject: string; content: string; isDefault: boolean };

/**
 * Creates (id undefined) or replaces a template. One template at most is the default: marking one clears the
 * others in the same transaction. A second template with the same name (any case) is a conflict.
 */
export async function saveTemplate(
  db: DbExecutor,
  userId: string,
  id: string | undefined,
  values: TemplateValues,
  now: Date,
): Promise<EmailTemplate> {
  if (values.isDefault) {
    let clear = db
      .updateTable('email_templates')
      .set({ is_default: false })
      .where('user_id', '=', userId)
      .where('is_default', '=', true);
    if (id) clear = clear.where('id', '<>', id);
    await clear.execute();
  }
  const row = {
    name: values.name,
    subject: values.subject,
    content: values.content,
    is_default: values.isDefault,
    updated_at: now,
  };
  try {
    const saved = id
      ? await db
          .updateTable('email_templates')
          .set(row)
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirst()
      : await db
          .insertInto('email_templates')
          .values({ ...row, user_id: userId, created_at: now })
          .returning(COLUMNS)
          .executeTakeFirst();
    if (!saved) throw new AppError('NOT_FOUND', 'Template not found');
    return toTemplate(saved);
  } catch (error) {
    if ((error as { constraint?: string }).constraint === 'email_templates_name_idx') {
      throw new AppError('CONFLICT', 'A template with this name already exists', {
        issues: [{ path: 'body.name', message: 'A template with this name already exists' }],
      });
    }
    throw error;
  }
}

export async function deleteTemplate(db: DbExecutor, userId: string, id: string): Promise<void> {
  const result = await db
    .deleteFrom('email_templates')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError('NOT_FOUND', 'Template not found');
}
