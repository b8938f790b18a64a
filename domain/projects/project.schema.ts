import { z } from 'zod';

/**
 * Projects (project; decision 000 "Projects have fields but no screen creates them"): a name,
 * client, status, deadline, budget, description and type (calling, e-mail or SMS); call queues and campaigns may
 * belong to one.
 */
export const ProjectStatusSchema = z.enum(['active', 'planning', 'on-hold', 'completed']);
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>;
export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  active: 'Active',
  planning: 'Planning',
  'on-hold': 'On Hold',
  completed: 'Completed',
};

export const ProjectTypeSchema = z.enum(['calling', 'email', 'sms']);
export type ProjectType = z.infer<typeof ProjectTypeSchema>;
export const PROJECT_TYPE_LABELS: Record<ProjectType, string> = {
  calling: 'Calling',
  email: 'E-mail',
  sms: 'SMS',
};

/** What a card shows for a field that is not set. */
export const PROJECT_DEFAULTS = {
  name: 'Untitled Project',
  client: 'Unknown',
  description: 'No description available',
  deadline: 'No date set',
  budget: '$0.00',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .transform((v) => v || null)
    .nullish();

export const ProjectInputSchema = z.object({
  name: z
    .string()
    .trim()
    .max(200, 'A project name has at most 200 characters')
    .refine((v) => v.length > 0, 'Please provide a name for your project'),
  client: optionalText(200),
  status: ProjectStatusSchema.default('planning'),
  deadline: z.iso
    .date('Enter the deadline as a date')
    .nullish()
    .or(z.literal('').transform(() => null)),
  budget: z
    .number('Enter the budget as an amount')
    .min(0, 'The budget cannot be negative')
    .max(999_999_999_999, 'The budget is too large')
    .nullish(),
  description: optionalText(5000),
  type: ProjectTypeSchema.default('calling'),
});
export type ProjectInput = z.input<typeof ProjectInputSchema>;

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  client: z.string().nullable(),
  status: ProjectStatusSchema,
  deadline: z.string().nullable(),
  budget: z.number().nullable(),
  description: z.string().nullable(),
  type: ProjectTypeSchema,
  /** The call queues that belong to the project. */
  queueCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;
export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });
export const ProjectResponseSchema = z.object({ project: ProjectSchema });

/** Display: budget in US dollars with cents; '$0.00' when not set. */
export function formatBudget(budget: number | null): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(budget ?? 0);
}

/** Display: MM/dd/yyyy from a calendar date, 'No date set' without one. */
export function formatDeadline(deadline: string | null): string {
  const match = deadline ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(deadline) : null;
  return match ? `${match[2]}/${match[3]}/${match[1]}` : PROJECT_DEFAULTS.deadline;
}

/** What the project cards are narrowed to: words of the name, client or description, a status, a type. */
export const ProjectFilterSchema = z.object({
  search: z.string().max(200).default(''),
  status: z.union([ProjectStatusSchema, z.literal('all')]).default('all'),
  type: z.union([ProjectTypeSchema, z.literal('all')]).default('all'),
});
export type ProjectFilter = z.output<typeof ProjectFilterSchema>;
export const NO_PROJECT_FILTER: ProjectFilter = { search: '', status: 'all', type: 'all' };

/**
 * The projects a filter keeps: every word of the search (any case) found in the name, client or description, and
 * the status and type chosen ('all' keeps any). The order is kept.
 */
export function filterProjects<
  P extends Pick<Project, 'name' | 'client' | 'description' | 'status' | 'type'>,
>(projects: readonly P[], filter: ProjectFilter): P[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  return projects.filter((p) => {
    if (filter.status !== 'all' && p.status !== filter.status) return false;
    if (filter.type !== 'all' && p.type !== filter.type) return false;
    const text = `${p.name} ${p.client ?? ''} ${p.description ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
