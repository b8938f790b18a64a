import {
  PROJECT_STATUS_LABELS,
  PROJECT_TYPE_LABELS,
  ProjectStatusSchema,
  ProjectTypeSchema,
  type ProjectFilter,
} from '#domain/projects/project.schema.ts';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { SearchInput } from '../../../components/ui/search-input.tsx';

/** Search the projects by name, client or description, and narrow them to a status and a type. */
export function ProjectFilterBar(props: {
  filter: ProjectFilter;
  onChange: (filter: ProjectFilter) => void;
}) {
  const { filter } = props;
  return (
    <div role="search" aria-label="Filter projects" className="flex flex-wrap items-end gap-3">
      <SearchInput
        aria-label="Search projects"
        placeholder="Search projects"
        value={filter.search}
        onChange={(e) => props.onChange({ ...filter, search: e.target.value })}
        className="min-w-56 flex-1"
      />
      <div className="flex flex-col gap-1">
        <Label htmlFor="project-status-filter">Status</Label>
        <NativeSelect
          id="project-status-filter"
          value={filter.status}
          onChange={(e) => props.onChange({ ...filter, status: e.target.value as ProjectFilter['status'] })}
        >
          <option value="all">All statuses</option>
          {ProjectStatusSchema.options.map((s) => (
            <option key={s} value={s}>
              {PROJECT_STATUS_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="project-type-filter">Type</Label>
        <NativeSelect
          id="project-type-filter"
          value={filter.type}
          onChange={(e) => props.onChange({ ...filter, type: e.target.value as ProjectFilter['type'] })}
        >
          <option value="all">All types</option>
          {ProjectTypeSchema.options.map((t) => (
            <option key={t} value={t}>
              {PROJECT_TYPE_LABELS[t]}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
