import { CampaignsTable, useCampaigns } from '../campaigns/public.ts';
import { useState } from 'react';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import { QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Mail, MessageSquare, PhoneCall, Plus, RefreshCw } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { ProjectCards, ProjectFormDialog } from '../projects/public.ts';
import { CallQueuesTable, useQueues } from '../queues/public.ts';

type Tab = 'projects' | 'campaigns';

/**
 * /projects: the Projects tab (three large buttons, project cards, New Project) and the Campaigns
 * tab (New Call Queue and the campaign screens, Refresh, and the Call Queues, Emails and SMS Campaigns sub-tabs with
 * their counts). The tab is kept in the address (?tab=campaigns), so a screen can send the person back to it.
 */
export function ProjectsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'campaigns' ? 'campaigns' : 'projects';
  const [creating, setCreating] = useState(false);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Projects</h1>
          <p className="text-muted-foreground">Your projects, call queues and campaigns.</p>
        </div>
        <Button className="ml-auto" onClick={() => setCreating(true)}>
          <Plus /> New Project
        </Button>
      </div>
      <Tabs
        value={tab}
        onValueChange={(v) => setParams(v === 'projects' ? {} : { tab: v }, { replace: true })}
      >
        <TabsList>
          <TabsTrigger value="projects">Projects</TabsTrigger>
          <TabsTrigger value="campaigns">Campaigns</TabsTrigger>
        </TabsList>
        <TabsContent value="projects" className="flex flex-col gap-6">
          <div className="grid gap-3 sm:grid-cols-3">
            <BigLink to="/projects/queue/create" icon={<PhoneCall />} title="Calling Projects" />
            <BigLink to="/projects/email/create" icon={<Mail />} title="Email Projects" />
            <BigLink to="/projects/sms/create" icon={<MessageSquare />} title="SMS Projects" />
          </div>
          <ProjectCards />
        </TabsContent>
        <TabsContent value="campaigns">
          <CampaignsTab />
        </TabsContent>
      </Tabs>
      {creating && <ProjectFormDialog onClose={() => setCreating(false)} />}
    </div>
  );
}

function BigLink(props: { to: string; icon: React.ReactNode; title: string }) {
  return (
    <Link
      to={props.to}
      className="flex items-center gap-3 rounded-lg border border-border p-5 font-medium hover:bg-accent [&_svg]:size-6 [&_svg]:text-primary"
    >
      {props.icon}
      {props.title}
    </Link>
  );
}

function CampaignsTab() {
  const queues = useQueues(true);
  const emails = useCampaigns('email');
  const sms = useCampaigns('sms');
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/projects/queue/create">
            <PhoneCall /> New Call Queue
          </Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/projects/email/create">New Email Campaign</Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/projects/email-sequence/create">New Email Sequence</Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/projects/sms/create">New SMS Campaign</Link>
        </Button>
        <Button
          variant="ghost"
          className="ml-auto"
          disabled={queues.isFetching || emails.isFetching || sms.isFetching}
          onClick={() =>
            void Promise.all([queues.refetch(), emails.refetch(), sms.refetch()]).then((results) => {
              const failed = results.find((r) => r.isError);
              if (failed?.error) toast.error('Error', { description: failed.error.message });
              else toast.success('Campaigns refreshed');
            })
          }
        >
          <RefreshCw /> Refresh
        </Button>
      </div>
      <Tabs defaultValue="queues">
        <TabsList>
          <TabsTrigger value="queues">
            Call Queues <Badge variant="secondary">{queues.data?.length ?? 0}</Badge>
          </TabsTrigger>
          <TabsTrigger value="emails">
            Emails <Badge variant="secondary">{emails.data?.length ?? 0}</Badge>
          </TabsTrigger>
          <TabsTrigger value="sms">
            SMS Campaigns <Badge variant="secondary">{sms.data?.length ?? 0}</Badge>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="queues">
          {queues.isPending ? (
            <Spinner />
          ) : queues.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {QUEUE_MESSAGES.listFailed}
            </p>
          ) : (
            <CallQueuesTable queues={queues.data} />
          )}
        </TabsContent>
        <TabsContent value="emails">
          {emails.isPending ? (
            <Spinner />
          ) : emails.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {CAMPAIGN_MESSAGES.loadFailed.description}
            </p>
          ) : (
            <CampaignsTable channel="email" campaigns={emails.data} />
          )}
        </TabsContent>
        <TabsContent value="sms">
          {sms.isPending ? (
            <Spinner />
          ) : sms.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {CAMPAIGN_MESSAGES.loadFailed.description}
            </p>
          ) : (
            <CampaignsTable channel="sms" campaigns={sms.data} />
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
