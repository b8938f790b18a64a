import { useParams, Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import {
  formatBudget,
  formatDeadline,
  PROJECT_DEFAULTS,
  PROJECT_STATUS_LABELS,
  PROJECT_TYPE_LABELS,
} from '#domain/projects/project.schema.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { CampaignsTable, useCampaigns } from '../campaigns/public.ts';
import { useProjects } from '../projects/public.ts';
import { CallQueuesTable, useQueues } from '../queues/public.ts';

/**
 * /projects/project/{id}: a project with what belongs to it, its call queues, e-mail campaigns and sequences, and
 * SMS campaigns, each table as on the Campaigns tab.
 */
export function ProjectPage() {
  const { id = '' } = useParams();
  const projects = useProjects();
  const queues = useQueues(true);
  const emails = useCampaigns('email');
  const sms = useCampaigns('sms');
  if (projects.isPending) return <Spinner />;
  const project = projects.data?.find((p) => p.id === id);
  if (!project)
    return (
      <div role="alert" className="mx-auto max-w-3xl rounded-md border border-border p-4 text-sm">
        <p className="font-medium">Error loading projects</p>
        <p className="text-muted-foreground">
          {projects.isError ? projects.error.message || 'Failed to load projects' : 'Project not found'}
        </p>
        <Link to="/projects" className="underline">
          Back to projects
        </Link>
      </div>
    );
  const ours = <T extends { projectId: string | null }>(list: T[] | undefined) =>
    (list ?? []).filter((item) => item.projectId === project.id);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4">
      <Button variant="ghost" className="self-start" asChild>
        <Link to="/projects">
          <ArrowLeft /> Back to projects
        </Link>
      </Button>
      <Card>
        <CardHeader>
          <div className="flex items-center gap-2">
            <h1 className="text-2xl font-bold leading-none tracking-tight">
              {project.name || PROJECT_DEFAULTS.name}
            </h1>
            <Badge variant="secondary">{PROJECT_STATUS_LABELS[project.status]}</Badge>
          </div>
          <CardDescription>
            {project.client || PROJECT_DEFAULTS.client} · {PROJECT_TYPE_LABELS[project.type]} · Deadline{' '}
            {formatDeadline(project.deadline)} · Budget {formatBudget(project.budget)}
          </CardDescription>
        </CardHeader>
        <CardContent className="text-sm text-muted-foreground">
          {project.description || PROJECT_DEFAULTS.description}
        </CardContent>
      </Card>
      <Section title="Call queues" loading={queues.isPending} failed={queues.isError}>
        <CallQueuesTable queues={ours(queues.data)} />
      </Section>
      <Section title="Email campaigns" loading={emails.isPending} failed={emails.isError}>
        <CampaignsTable channel="email" campaigns={ours(emails.data)} />
      </Section>
      <Section title="SMS campaigns" loading={sms.isPending} failed={sms.isError}>
        <CampaignsTable channel="sms" campaigns={ours(sms.data)} />
      </Section>
    </div>
  );
}

function Section(props: { title: string; loading: boolean; failed: boolean; children: React.ReactNode }) {
  return (
    <section aria-label={props.title} className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">{props.title}</h2>
      {props.loading ? (
        <Spinner />
      ) : props.failed ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load them. Please try again.
        </p>
      ) : (
        props.children
      )}
    </section>
  );
}
