import { useState, type ReactNode } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { DuplicateMode } from '#domain/contacts/contact-import.ts';
import { formatMoment } from '../../lib/dates.ts';
import { Button } from '../ui/button.tsx';
import { Label } from '../ui/label.tsx';

/**
 * Pieces every connected service's card in Settings → Integrations shows the same way (Slack, HubSpot, Salesforce):
 * a choice, the last failure in the service's words, the Disconnect button, a CRM's import.
 */

export function Choice(props: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

/** How many calls were logged in the CRM, and when the last was. */
export function CallsLogged(props: { count: number; lastAt: string | null }) {
  return (
    <p className="text-muted-foreground">
      {props.count > 0 && props.lastAt
        ? `${props.count.toLocaleString('en-US')} ${props.count === 1 ? 'call' : 'calls'} logged; the last ${formatMoment(props.lastAt)}.`
        : 'No call logged yet.'}
    </p>
  );
}

/** The last thing that failed, in the service's words, and when; nothing when nothing failed since. */
export function LastFailure(props: { error: string | null; at: string | null }) {
  if (!props.error) return null;
  return (
    <p role="alert" className="text-destructive">
      Last failure{props.at ? ` (${formatMoment(props.at)})` : ''}: {props.error}
    </p>
  );
}

/** Disconnects the service, saying so (or why not) in a toast. */
export function DisconnectButton(props: {
  service: string;
  disconnect: UseMutationResult<unknown, Error, void>;
}) {
  const { disconnect, service } = props;
  return (
    <Button
      variant="outline"
      disabled={disconnect.isPending}
      onClick={() =>
        disconnect.mutate(undefined, {
          onSuccess: () => toast.success(`${service} disconnected`),
          onError: (error) => toast.error('Could not disconnect', { description: error.message }),
        })
      }
    >
      Disconnect
    </Button>
  );
}

/**
 * A CRM's import into this one (HubSpot, Salesforce): what it brings, what happens to contacts already here, the
 * button, and how the last import ended (in the service's words when it failed).
 */
export function CrmImport(props: {
  service: string;
  /** What is imported and where it goes. */
  description: string;
  /** Further choices shown above the button (which objects). */
  children?: ReactNode;
  state: {
    importStatus: 'running' | 'done' | 'failed' | null;
    importAt: string | null;
    importSummary: string | null;
  };
  pending: boolean;
  disabled?: boolean;
  start: (duplicates: DuplicateMode) => void;
}) {
  const [duplicates, setDuplicates] = useState<DuplicateMode>('skip');
  const { importStatus, importAt, importSummary } = props.state;
  const running = importStatus === 'running';
  const id = `${props.service.toLowerCase()}-duplicates`;
  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-border p-3"
      aria-label={`Import from ${props.service}`}
    >
      <p className="font-medium">Import contacts from {props.service}</p>
      <p className="text-muted-foreground">{props.description}</p>
      {props.children}
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor={id}>Contacts you already have</Label>
        <select
          id={id}
          className="rounded-md border border-input bg-background px-2 py-1"
          value={duplicates}
          onChange={(e) => setDuplicates(e.target.value as DuplicateMode)}
        >
          <option value="skip">Skip them</option>
          <option value="update">Update them from {props.service}</option>
        </select>
        <Button disabled={running || props.pending || props.disabled} onClick={() => props.start(duplicates)}>
          {running ? 'Importing…' : 'Import contacts'}
        </Button>
      </div>
      {importStatus && importStatus !== 'running' && (
        <p
          role={importStatus === 'failed' ? 'alert' : 'status'}
          className={importStatus === 'failed' ? 'text-destructive' : 'text-muted-foreground'}
        >
          {importStatus === 'failed' ? 'Last import failed' : 'Last import'}
          {importAt ? ` (${formatMoment(importAt)})` : ''}: {importSummary}
        </p>
      )}
    </div>
  );
}
