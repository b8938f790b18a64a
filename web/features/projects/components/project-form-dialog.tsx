import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  PROJECT_STATUS_LABELS,
  PROJECT_TYPE_LABELS,
  ProjectInputSchema,
  ProjectStatusSchema,
  ProjectTypeSchema,
  type Project,
  type ProjectStatus,
  type ProjectType,
} from '#domain/projects/project.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { useSaveProject } from '../api/projects-queries.ts';

/**
 * Create or edit a project (decision 000 "Projects have fields but no screen creates them"): name, client, status,
 * deadline, budget, description and type. The server's words are shown when it refuses.
 */
export function ProjectFormDialog({
  project,
  initialType = 'calling',
  onClose,
}: {
  /** The project to edit; a new one when absent. */
  project?: Project;
  initialType?: ProjectType;
  onClose: () => void;
}) {
  const [name, setName] = useState(project?.name ?? '');
  const [client, setClient] = useState(project?.client ?? '');
  const [status, setStatus] = useState<ProjectStatus>(project?.status ?? 'planning');
  const [deadline, setDeadline] = useState(project?.deadline ?? '');
  const [budget, setBudget] = useState(project?.budget === null || !project ? '' : String(project.budget));
  const [description, setDescription] = useState(project?.description ?? '');
  const [type, setType] = useState<ProjectType>(project?.type ?? initialType);
  const save = useSaveProject();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ProjectInputSchema.safeParse({
      name,
      client,
      status,
      deadline: deadline || null,
      budget: budget.trim() === '' ? null : Number(budget),
      description,
      type,
    });
    if (!parsed.success)
      return void toast.error('Please check the project', { description: parsed.error.issues[0]?.message });
    save.mutate(
      { ...parsed.data, ...(project ? { id: project.id } : {}) },
      {
        onSuccess: (saved) => {
          toast.success(project ? 'Project updated' : 'Project created', { description: saved.name });
          onClose();
        },
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{project ? 'Edit Project' : 'New Project'}</DialogTitle>
          <DialogDescription>Call queues and campaigns can belong to a project.</DialogDescription>
        </DialogHeader>
        <form id="project-form" className="grid grid-cols-2 gap-3" onSubmit={submit} aria-label="Project">
          <Field id="project-name" label="Name" wide>
            <Input id="project-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="project-client" label="Client">
            <Input
              id="project-client"
              value={client}
              maxLength={200}
              onChange={(e) => setClient(e.target.value)}
            />
          </Field>
          <Field id="project-type" label="Type">
            <NativeSelect
              id="project-type"
              value={type}
              onChange={(e) => setType(e.target.value as ProjectType)}
            >
              {ProjectTypeSchema.options.map((t) => (
                <option key={t} value={t}>
                  {PROJECT_TYPE_LABELS[t]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="project-status" label="Status">
            <NativeSelect
              id="project-status"
              value={status}
              onChange={(e) => setStatus(e.target.value as ProjectStatus)}
            >
              {ProjectStatusSchema.options.map((s) => (
                <option key={s} value={s}>
                  {PROJECT_STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="project-deadline" label="Deadline">
            <Input
              id="project-deadline"
              type="date"
              value={deadline}
              onChange={(e) => setDeadline(e.target.value)}
            />
          </Field>
          <Field id="project-budget" label="Budget (USD)" wide>
            <Input
              id="project-budget"
              type="number"
              min={0}
              step="0.01"
              inputMode="decimal"
              value={budget}
              onChange={(e) => setBudget(e.target.value)}
            />
          </Field>
          <Field id="project-description" label="Description" wide>
            <Textarea
              id="project-description"
              rows={3}
              maxLength={5000}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </Field>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="project-form" disabled={save.isPending}>
            {project ? 'Save Project' : 'Create Project'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Field(props: { id: string; label: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <div className={`flex flex-col gap-1.5 ${props.wide ? 'col-span-2' : ''}`}>
      <Label htmlFor={props.id}>{props.label}</Label>
      {props.children}
    </div>
  );
}
