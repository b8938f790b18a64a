import { sql } from 'kysely';
import type { Project, ProjectStatus, ProjectType } from '#domain/projects/project.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';

export type ProjectValues = {
  name: string;
  client: string | null;
  status: ProjectStatus;
  deadline: string | null;
  budget: number | null;
  description: string | null;
  type: ProjectType;
};

const toRow = (v: ProjectValues) => ({
  name: v.name,
  client: v.client,
  status: v.status,
  deadline: v.deadline,
  budget: v.budget === null ? null : v.budget.toFixed(2),
  description: v.description,
  project_type: v.type,
});

function projects(db: DbExecutor, userId: string) {
  return db
    .selectFrom('projects as p')
    .select([
      'p.id',
      'p.name',
      'p.client',
      'p.status',
      'p.deadline',
      'p.budget',
      'p.description',
      'p.project_type',
      'p.created_at',
      'p.updated_at',
      sql<number>`(select count(*)::int from power_dialer_queues q where q.project_id = p.id)`.as(
        'queue_count',
      ),
    ])
    .where('p.user_id', '=', userId);
}

type Row = Awaited<ReturnType<ReturnType<typeof projects>['executeTakeFirstOrThrow']>>;
const toProject = (r: Row): Project => ({
  id: r.id,
  name: r.name,
  client: r.client,
  status: r.status,
  deadline: r.deadline,
  budget: r.budget === null ? null : Number(r.budget),
  description: r.description,
  type: r.project_type,
  queueCount: r.queue_count,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export const projectNotFound = () => new AppError('NOT_FOUND', 'Project not found');

/** The user's projects, newest first. */
export async function findProjects(db: DbExecutor, userId: string): Promise<Project[]> {
  return (await projects(db, userId).orderBy('p.created_at', 'desc').limit(1000).execute()).map(toProject);
}

/** One project of the user, or NOT_FOUND (another user's project is not found). */
export async function getProject(db: DbExecutor, userId: string, id: string): Promise<Project> {
  const row = await projects(db, userId).where('p.id', '=', id).executeTakeFirst();
  if (!row) throw projectNotFound();
  return toProject(row);
}

export async function insertProject(db: DbExecutor, userId: string, values: ProjectValues, now: Date) {
  const row = await db
    .insertInto('projects')
    .values({ user_id: userId, ...toRow(values), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates the user's project; NOT_FOUND when it is not theirs. */
export async function updateProject(
  db: DbExecutor,
  userId: string,
  id: string,
  values: ProjectValues,
  now: Date,
) {
  const result = await db
    .updateTable('projects')
    .set({ ...toRow(values), updated_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw projectNotFound();
}

/** Deletes the user's project; its queues stay, belonging to no project. */
export async function deleteProject(db: DbExecutor, userId: string, id: string) {
  const result = await db
    .deleteFrom('projects')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw projectNotFound();
}

/** Whether the project is the user's (a queue can only be put in one's own project). */
export async function isOwnProject(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}
