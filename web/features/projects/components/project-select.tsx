import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { useProjects } from '../api/projects-queries.ts';

/** The Project field of a queue or campaign: one of the user's projects, or none. */
export function ProjectSelect(props: {
  id: string;
  value: string | null;
  onChange: (projectId: string | null) => void;
  disabled?: boolean;
}) {
  const projects = useProjects();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={props.id}>Project</Label>
      <NativeSelect
        id={props.id}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value || null)}
      >
        <option value="">No project</option>
        {projects.data?.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
