import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { KeyRound } from 'lucide-react';
import {
  DEFAULT_API_KEY_REQUESTS_PER_MINUTE,
  SCOPE_LABELS,
  type ApiKey,
  type ApiKeyScope,
} from '#domain/api-keys/api-key.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { problemOf } from '../../../lib/api-client.ts';
import { formatMoment } from '../../../lib/dates.ts';
import { useApiKeys, useMakeApiKey, useRevokeApiKey } from '../api/api-keys.ts';

const copy = (secret: string) =>
  void navigator.clipboard
    .writeText(secret)
    .then(() => toast.success('API key copied'))
    .catch(() => toast.error('Could not copy', { description: 'Select the key and copy it by hand.' }));

/**
 * Settings → Integrations → API keys (decision 033): a personal key for scripts and other tools, read only or read
 * and write, shown once when made, listed with when it was last used, revoked at once.
 */
export function ApiKeysCard() {
  const keys = useApiKeys();
  const make = useMakeApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    make.mutate(
      { name, scope },
      {
        onSuccess: (answer) => {
          setMade({ name: answer.key.name, secret: answer.secret });
          setName('');
        },
      },
    );
  };

  return (
    <Card role="region" aria-label="API keys" className="mt-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5" /> API keys
        </CardTitle>
        <CardDescription>
          Let a script or another tool use the API as you: it sends the key as{' '}
          <code className="font-mono text-xs">Authorization: Bearer ccrm_…</code> and reaches your own data
          only, never your password, sessions, keys or administration. A read-only key cannot change anything.
          Each key may make {DEFAULT_API_KEY_REQUESTS_PER_MINUTE} requests a minute unless your administrator
          set another limit. Treat a key like a password: revoke it here the moment it may have leaked.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {made && (
          <div
            role="status"
            className="flex flex-col gap-2 rounded-md border border-primary/50 bg-primary/5 p-3"
          >
            <p className="font-medium">
              Your new key &ldquo;{made.name}&rdquo;. Copy it now: it is not shown again.
            </p>
            <div className="flex flex-wrap gap-2">
              <Input
                aria-label="New API key"
                readOnly
                value={made.secret}
                className="min-w-0 flex-1 font-mono text-xs"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button onClick={() => copy(made.secret)}>Copy key</Button>
              <Button variant="outline" onClick={() => setMade(null)}>
                Done
              </Button>
            </div>
            <p className="text-muted-foreground">
              Try it:{' '}
              <code className="font-mono text-xs break-all">
                curl -H &quot;Authorization: Bearer {made.secret}&quot; {window.location.origin}/api/contacts
              </code>
            </p>
          </div>
        )}
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Make an API key">
          <div className="flex min-w-48 flex-1 flex-col gap-1">
            <Label htmlFor="api-key-name">Key name</Label>
            <Input
              id="api-key-name"
              value={name}
              maxLength={100}
              placeholder="What will use it, e.g. Zapier"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="api-key-scope">Access</Label>
            <NativeSelect
              id="api-key-scope"
              value={scope}
              onChange={(e) => setScope(e.target.value as ApiKeyScope)}
            >
              <option value="read">{SCOPE_LABELS.read}</option>
              <option value="read-write">{SCOPE_LABELS['read-write']}</option>
            </NativeSelect>
          </div>
          <Button type="submit" disabled={make.isPending || name.trim() === ''}>
            Make key
          </Button>
        </form>
        {make.isError && (
          <p role="alert" className="text-destructive">
            {problemOf(make.error)}
          </p>
        )}
        {keys.isPending ? (
          <Spinner />
        ) : keys.isError ? (
          <p role="alert" className="text-destructive">
            {keys.error.message}
          </p>
        ) : keys.data.keys.length === 0 ? (
          <p className="text-muted-foreground">No API keys yet.</p>
        ) : (
          <KeyTable keys={keys.data.keys} />
        )}
      </CardContent>
    </Card>
  );
}

function KeyTable({ keys }: { keys: ApiKey[] }) {
  const revoke = useRevokeApiKey();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <>
      <Table aria-label="Your API keys">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Access</TableHead>
            <TableHead>Key</TableHead>
            <TableHead>Made</TableHead>
            <TableHead>Last used</TableHead>
            <TableHead>
              <span className="sr-only">Revoke</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {keys.map((key) => (
            <TableRow key={key.id}>
              <TableCell className="font-medium">{key.name}</TableCell>
              <TableCell>{SCOPE_LABELS[key.scope]}</TableCell>
              <TableCell className="font-mono text-xs">ccrm_…{key.hint}</TableCell>
              <TableCell>{formatMoment(key.createdAt)}</TableCell>
              <TableCell>{key.lastUsedAt ? formatMoment(key.lastUsedAt) : 'Never'}</TableCell>
              <TableCell className="text-right">
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Revoke ${key.name}`}
                  onClick={() => setRevoking(key)}
                >
                  Revoke
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        description="Anything still using this key is refused from now on. This cannot be undone."
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast.success('API key revoked');
              setRevoking(null);
            },
            onError: (error) => toast.error('Could not revoke the key', { description: error.message }),
          })
        }
      />
    </>
  );
}
