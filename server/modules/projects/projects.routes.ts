import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  filterProjects,
  ProjectFilterSchema,
  ProjectInputSchema,
  ProjectListSchema,
  ProjectResponseSchema,
} from '#domain/projects/project.schema.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import {
  deleteProject,
  findProjects,
  getProject,
  insertProject,
  updateProject,
} from './projects.repository.ts';

const approved = { config: { access: 'approved' as const } };
const ProjectParams = z.object({ projectId: z.uuid('Invalid project id') });

/** Projects (decision 000): list, create, read, edit, delete; another user's is not found. */
export function registerProjectRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/projects',
    { ...approved, schema: { querystring: ProjectFilterSchema, response: { 200: ProjectListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      // A person's projects are few: narrowed by the one rule the cards are described by, newest first.
      const projects = await asUser(userId, (trx) => findProjects(trx, userId));
      return { projects: filterProjects(projects, request.query) };
    },
  );

  typed.post(
    '/api/projects',
    { ...approved, schema: { body: ProjectInputSchema, response: { 201: ProjectResponseSchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { budget = null, deadline = null, client = null, description = null, ...rest } = request.body;
      const project = await asUser(userId, async (trx) => {
        const id = await insertProject(
          trx,
          userId,
          { ...rest, budget, deadline, client, description },
          ctx.clock(),
        );
        return getProject(trx, userId, id);
      });
      return reply.status(201).send({ project });
    },
  );

  typed.get(
    '/api/projects/:projectId',
    { ...approved, schema: { params: ProjectParams, response: { 200: ProjectResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { project: await asUser(userId, (trx) => getProject(trx, userId, request.params.projectId)) };
    },
  );

  typed.put(
    '/api/projects/:projectId',
    {
      ...approved,
      schema: { params: ProjectParams, body: ProjectInputSchema, response: { 200: ProjectResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { budget = null, deadline = null, client = null, description = null, ...rest } = request.body;
      return {
        project: await asUser(userId, async (trx) => {
          await updateProject(
            trx,
            userId,
            request.params.projectId,
            { ...rest, budget, deadline, client, description },
            ctx.clock(),
          );
          return getProject(trx, userId, request.params.projectId);
        }),
      };
    },
  );

  typed.delete(
    '/api/projects/:projectId',
    { ...approved, schema: { params: ProjectParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => deleteProject(trx, userId, request.params.projectId));
      return reply.status(204).send();
    },
  );
}
