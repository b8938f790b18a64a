import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NO_PROJECT_FILTER,
  ProjectListSchema,
  type ProjectFilter,
  ProjectResponseSchema,
  type ProjectInput,
} from '#domain/projects/project.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/** Every project query lives under 'projects', the realtime topic. */
export const projectKeys = { all: ['projects'] as const };

/** The user's projects, newest first; narrowed on the server by a search, a status and a type when given. */
export function useProjects(filter: ProjectFilter = NO_PROJECT_FILTER) {
  return useQuery({
    queryKey: [...projectKeys.all, filter],
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({
        search: filter.search.trim(),
        status: filter.status,
        type: filter.type,
      });
      return (await apiFetch(`/api/projects?${query.toString()}`, { schema: ProjectListSchema, signal }))
        .projects;
    },
    placeholderData: (previous) => previous,
  });
}

/** Creates a project, or saves an existing one (with its id). */
export function useSaveProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...input }: ProjectInput & { id?: string }) =>
      (
        await apiFetch(id ? `/api/projects/${id}` : '/api/projects', {
          method: id ? 'PUT' : 'POST',
          body: input,
          schema: ProjectResponseSchema,
        })
      ).project,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/projects/${id}`, { method: 'DELETE' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['queues'] }),
      ]),
  });
}
