import { QueueFillNote } from './queue-fill-note.tsx';
import { SelectionPicker } from './selection-picker.tsx';
import { createdQueueText } from '../added-to-queue.ts';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client.ts';
import { queueErrorText } from '../queue-error-text.ts';
import { X } from 'lucide-react';
import { DEFAULT_QUEUE_ID, QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  selectionSize,
  toBulkSelection,
  useContactLookup,
  type ContactSelection,
} from '../../contacts/public.ts';
import { ProjectSelect } from '../../projects/public.ts';
import { useCreateQueue, useQueue, useQueueMembers, useUpdateQueue } from '../api/queues-queries.ts';

/** Where the contact list's Send to Campaign and Call Selected put the ticked ids (navigation state). */
type NavigationState = { selectedContactIds?: string[] } | null;

const PROJECTS_CAMPAIGNS = '/projects?tab=campaigns';

/** /projects/queue/create and /projects/queue/edit/{id}. */
export function QueueEditorPage() {
  const { id } = useParams();
  return id ? <EditQueue queueId={id} /> : <CreateQueue />;
}

function CreateQueue() {
  const navigate = useNavigate();
  const location = useLocation();
  // The contacts the list sent are read once, then dropped from the history entry: a reload starts empty.
  const [preselectedIds] = useState(() => (location.state as NavigationState)?.selectedContactIds ?? []);
  useEffect(() => {
    if (location.state)
      void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [location, navigate]);
  const preselected = useContactLookup(preselectedIds);
  const lookupFailed = preselected.isError;
  useEffect(() => {
    if (lookupFailed)
      toast.error('Failed to fetch contact details', { description: 'Select the contacts again.' });
  }, [lookupFailed]);
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState<string | null>(null);
  // undefined until the person chooses: the contacts the list sent are shown until then.
  const [chosen, setChosen] = useState<ContactSelection | null | undefined>(undefined);
  const selection: ContactSelection | null =
    chosen !== undefined
      ? chosen
      : preselected.data?.length
        ? {
            kind: 'ids',
            contacts: preselected.data.map((c) => ({
              id: c.id,
              name: `${c.firstName} ${c.lastName}`.trim(),
              phone: c.phone,
              company: c.company,
            })),
          }
        : null;
  const create = useCreateQueue();
  const count = selectionSize(selection);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim())
      return void toast.error(QUEUE_MESSAGES.nameRequired.title, {
        description: QUEUE_MESSAGES.nameRequired.description,
      });
    if (!selection || count === 0)
      return void toast.error(QUEUE_MESSAGES.noContacts.title, {
        description: QUEUE_MESSAGES.noContacts.description,
      });
    create.mutate(
      { name, projectId, selection: toBulkSelection(selection) },
      {
        onSuccess: (queue) => {
          toast.success('Queue created', { description: createdQueueText(queue) });
          void navigate(PROJECTS_CAMPAIGNS);
        },
        onError: (error) =>
          toast.error('Error', { description: error.message || 'Failed to create queue. Please try again.' }),
      },
    );
  };

  return (
    <QueueForm
      title="Create Call Queue"
      name={name}
      onNameChange={setName}
      projectId={projectId}
      onProjectChange={setProjectId}
      onSubmit={submit}
      submitLabel="Create Queue"
      busy={create.isPending}
      canSubmit={count > 0}
    >
      <SelectionPicker selection={selection} onChange={setChosen} loading={preselected.isLoading} />
    </QueueForm>
  );
}

function EditQueue({ queueId }: { queueId: string }) {
  const navigate = useNavigate();
  const queue = useQueue(queueId);
  const members = useQueueMembers(queueId);
  const [name, setName] = useState<string | null>(null);
  const [projectId, setProjectId] = useState<string | null | undefined>(undefined);
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [added, setAdded] = useState<ContactSelection | null>(null);
  const update = useUpdateQueue();

  if (queue.isPending) return <Spinner />;
  if (queue.isError)
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Edit Call Queue</h1>
        <div role="alert">
          <p className="font-medium">{QUEUE_MESSAGES.loadFailed.title}</p>
          <p className="text-muted-foreground">
            {queue.error instanceof ApiError && queue.error.status === 404
              ? 'Queue not found'
              : QUEUE_MESSAGES.loadFailed.description}
          </p>
        </div>
        <Link to={PROJECTS_CAMPAIGNS} className="text-primary hover:underline">
          Back to campaigns
        </Link>
      </div>
    );
  const isDefault = queue.data.queueId === DEFAULT_QUEUE_ID;
  const rows = members.data?.pages.flatMap((p) => p.members) ?? [];
  const remaining = queue.data.total - removed.size + selectionSize(added);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const newName = name ?? queue.data.name;
    if (!newName.trim())
      return void toast.error(QUEUE_MESSAGES.nameRequired.title, {
        description: QUEUE_MESSAGES.nameRequired.description,
      });
    update.mutate(
      {
        queueId,
        name: newName,
        projectId: projectId === undefined ? queue.data.projectId : projectId,
        ...(added ? { add: toBulkSelection(added) } : {}),
        ...(removed.size > 0 ? { remove: [...removed] } : {}),
      },
      {
        onSuccess: () => {
          toast.success('Queue updated');
          void navigate(PROJECTS_CAMPAIGNS);
        },
        onError: (error) =>
          toast.error('Error', { description: queueErrorText(error, QUEUE_MESSAGES.updateFailed) }),
      },
    );
  };

  return (
    <QueueForm
      title="Edit Call Queue"
      name={name ?? queue.data.name}
      onNameChange={setName}
      projectId={projectId === undefined ? queue.data.projectId : projectId}
      onProjectChange={setProjectId}
      onSubmit={submit}
      submitLabel="Save Queue"
      busy={update.isPending}
      canSubmit={!isDefault && (remaining > 0 || queue.data.filling !== null)}
    >
      {isDefault && <p className="text-sm text-muted-foreground">{QUEUE_MESSAGES.defaultQueue}</p>}
      <div className="flex items-center gap-2">
        <Label>Contacts in this queue</Label>
        <Badge variant="secondary" aria-label="Queue contact count">
          {queue.data.total.toLocaleString()}
          {removed.size > 0 ? ` − ${removed.size}` : ''}
        </Badge>
        <QueueFillNote queue={queue.data} />
      </div>
      <ul
        aria-label="Queue contacts"
        className="max-h-[15rem] divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
      >
        {rows.map((m) => {
          const memberName = `${m.firstName} ${m.lastName}`.trim();
          const gone = removed.has(m.contactId);
          return (
            <li key={m.contactId} className="flex items-center gap-2 p-2">
              <span className={gone ? 'truncate text-muted-foreground line-through' : 'truncate'}>
                {memberName}
              </span>
              {m.completed && <Badge variant="outline">Called</Badge>}
              {!isDefault && (
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  className="ml-auto"
                  aria-label={`${gone ? 'Keep' : 'Remove'} ${memberName}`}
                  onClick={() =>
                    setRemoved((current) => {
                      const next = new Set(current);
                      if (gone) next.delete(m.contactId);
                      else next.add(m.contactId);
                      return next;
                    })
                  }
                >
                  {gone ? 'Keep' : <X />}
                </Button>
              )}
            </li>
          );
        })}
        <ShowMoreItem {...members} />
      </ul>
      {!isDefault && (
        <>
          <Label>Add contacts</Label>
          <SelectionPicker selection={added} onChange={setAdded} />
        </>
      )}
    </QueueForm>
  );
}

function QueueForm(props: {
  title: string;
  name: string;
  onNameChange: (name: string) => void;
  projectId: string | null;
  onProjectChange: (projectId: string | null) => void;
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  busy: boolean;
  canSubmit: boolean;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{props.title}</h1>
      <Card>
        <CardHeader>
          <CardTitle>Queue details</CardTitle>
        </CardHeader>
        <CardContent>
          <form className="flex flex-col gap-4" onSubmit={props.onSubmit} aria-label={props.title}>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="queue-name">Queue name</Label>
              <Input
                id="queue-name"
                value={props.name}
                maxLength={200}
                placeholder="e.g. Tuesday follow-ups"
                onChange={(e) => props.onNameChange(e.target.value)}
              />
            </div>
            <ProjectSelect id="queue-project" value={props.projectId} onChange={props.onProjectChange} />
            {props.children}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" asChild>
                <Link to={PROJECTS_CAMPAIGNS}>Cancel</Link>
              </Button>
              <Button type="submit" disabled={!props.canSubmit || props.busy}>
                {props.submitLabel}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
