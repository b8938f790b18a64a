import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ProjectListSchema,
  ProjectResponseSchema,
  type ProjectInput,
} from '#domain/projects/project.schema.ts';
import { apiFetch } from '../../../lib/api-client.ts';

/** Every project query lives under 'projects', the realtime topic. */
export const projectKeys = { all: ['projects'] as const };

export function useProjects() {
  return useQuery({
    queryKey: projectKeys.all,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/projects', { schema: ProjectListSchema, signal })).projects,
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
