import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import {
  formatBudget,
  formatDeadline,
  NO_PROJECT_FILTER,
  PROJECT_DEFAULTS,
  PROJECT_STATUS_LABELS,
  PROJECT_TYPE_LABELS,
  type Project,
} from '#domain/projects/project.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useDebouncedSearch } from '../../../lib/use-debounced.ts';
import { useDeleteProject, useProjects } from '../api/projects-queries.ts';
import { ProjectFormDialog } from './project-form-dialog.tsx';
import { ProjectFilterBar } from './project-filter-bar.tsx';

/**
 * The Projects tab's grid: a card per project with the spec's defaults for what is not set,
 * edit and delete (confirmed), 'No Projects' when there are none, and an alert as well as a toast when loading fails.
 */
export function ProjectCards() {
  const [filter, setFilter] = useState(NO_PROJECT_FILTER);
  const search = useDebouncedSearch(filter.search);
  const projects = useProjects({ ...filter, search });
  const remove = useDeleteProject();
  const [editing, setEditing] = useState<Project | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const loadError = projects.error;
  useEffect(() => {
    if (loadError)
      toast.error('Error loading projects', { description: loadError.message || 'Failed to load projects' });
  }, [loadError]);

  if (projects.isPending) return <Spinner />;
  if (projects.isError)
    return (
      <div role="alert" className="rounded-md border border-destructive p-4 text-sm">
        <p className="font-medium">Error loading projects</p>
        <p className="text-muted-foreground">{projects.error.message || 'Failed to load projects'}</p>
      </div>
    );
  const shown = projects.data;
  return (
    <>
      <ProjectFilterBar filter={filter} onChange={setFilter} />
      {shown.length === 0 && (
        <div role="status" className="rounded-md border border-dashed border-border p-8 text-center text-sm">
          <p className="font-medium">No Projects</p>
          <p className="text-muted-foreground">
            No projects found. Try adjusting your search or add a new project.
          </p>
        </div>
      )}
      <ul aria-label="Projects" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {shown.map((project) => (
          <li key={project.id}>
            <Card className="h-full">
              <CardHeader>
                <div className="flex items-start gap-2">
                  <CardTitle className="min-w-0 flex-1 truncate">
                    <Link to={`/projects/project/${project.id}`} className="hover:underline">
                      {project.name || PROJECT_DEFAULTS.name}
                    </Link>
                  </CardTitle>
                  <Badge variant="secondary">{PROJECT_STATUS_LABELS[project.status]}</Badge>
                </div>
                <CardDescription>
                  {project.client || PROJECT_DEFAULTS.client} · {PROJECT_TYPE_LABELS[project.type]}
                </CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col gap-3 text-sm">
                <p className="line-clamp-3 text-muted-foreground">
                  {project.description || PROJECT_DEFAULTS.description}
                </p>
                <dl className="grid grid-cols-2 gap-1">
                  <dt className="text-muted-foreground">Deadline</dt>
                  <dd>{formatDeadline(project.deadline)}</dd>
                  <dt className="text-muted-foreground">Budget</dt>
                  <dd>{formatBudget(project.budget)}</dd>
                  <dt className="text-muted-foreground">Call queues</dt>
                  <dd>{project.queueCount}</dd>
                  <dt className="text-muted-foreground">Created</dt>
                  <dd>{formatDate(project.createdAt)}</dd>
                </dl>
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Edit ${project.name}`}
                    onClick={() => setEditing(project)}
                  >
                    <Pencil />
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${project.name}`}
                    onClick={() => setDeleting(project)}
                  >
                    <Trash2 />
                  </Button>
                </div>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      {editing && <ProjectFormDialog project={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this project?"
        description={`${deleting?.name ?? ''} is deleted. Its call queues stay, belonging to no project.`}
        confirmLabel="Delete Project"
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Project deleted', { description: deleting.name });
              setDeleting(null);
            },
            onError: (error) => toast.error('Error', { description: error.message }),
          })
        }
      />
    </>
  );
}
