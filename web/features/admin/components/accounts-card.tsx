import { useState } from 'react';
import { toast } from 'sonner';
import { MoreHorizontal } from 'lucide-react';
import { AccountStatusFilterSchema, type AccountStatusFilter } from '#domain/admin/admin.schema.ts';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { useAccountAction, useAccounts, type AccountAction } from '../api/admin-queries.ts';
import { formatDate } from '../../../lib/dates.ts';
import { accountState, displayName } from './account-display.ts';
import { ResetLinkDialog } from './reset-link-dialog.tsx';

const ACTION_DONE: Record<AccountAction, string> = {
  approve: 'User approved',
  deny: 'User denied',
  deactivate: 'Account deactivated',
  reactivate: 'Account reactivated',
  'make-admin': 'Role changed to admin',
  'make-user': 'Role changed to user',
};

function actionsFor(p: Profile, selfId: string): { action: AccountAction; label: string }[] {
  if (p.role === 'pending')
    return [
      { action: 'approve', label: 'Approve' },
      { action: 'deny', label: 'Deny' },
    ];
  if (p.role === 'denied') return [{ action: 'approve', label: 'Approve after all' }];
  const list: { action: AccountAction; label: string }[] = [];
  list.push(
    p.role === 'admin'
      ? { action: 'make-user', label: 'Make user' }
      : { action: 'make-admin', label: 'Make admin' },
  );
  if (p.id !== selfId)
    list.push(
      p.deactivated
        ? { action: 'reactivate', label: 'Reactivate' }
        : { action: 'deactivate', label: 'Deactivate' },
    );
  return list;
}

/** Every account of the instance, with search and the decisions an administrator of a team needs. */
export function AccountsCard({ selfId }: { selfId: string }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<AccountStatusFilter>('all');
  const [page, setPage] = useState(1);
  const [resetFor, setResetFor] = useState<Profile | null>(null);
  const accounts = useAccounts(search.trim(), status, page);
  const mutation = useAccountAction();
  const pages = accounts.data ? Math.max(1, Math.ceil(accounts.data.total / accounts.data.pageSize)) : 1;

  const run = (p: Profile, action: AccountAction) =>
    mutation.mutate(
      { action, userId: p.id },
      {
        onSuccess: () => toast.success(ACTION_DONE[action], { description: p.email }),
        onError: (error) => toast.error('Could not change the account', { description: error.message }),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>All Accounts</CardTitle>
        <CardDescription>
          Approved, pending, denied and deactivated accounts. Deactivation ends the person's sessions at once.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-wrap gap-2">
          <Input
            aria-label="Search accounts"
            placeholder="Search by name or email..."
            className="max-w-xs"
            value={search}
            onChange={(e) => (setSearch(e.target.value), setPage(1))}
          />
          <NativeSelect
            aria-label="Account status"
            value={status}
            onChange={(e) => (setStatus(AccountStatusFilterSchema.parse(e.target.value)), setPage(1))}
          >
            <option value="all">All accounts</option>
            <option value="approved">Approved</option>
            <option value="pending">Pending</option>
            <option value="denied">Denied</option>
            <option value="deactivated">Deactivated</option>
          </NativeSelect>
        </div>
        <Table aria-label="All accounts">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Registered</TableHead>
              <TableHead>State</TableHead>
              <TableHead className="w-12">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {accounts.data?.users.map((p) => {
              const state = accountState(p);
              return (
                <TableRow key={p.id}>
                  <TableCell>{displayName(p)}</TableCell>
                  <TableCell>{p.email}</TableCell>
                  <TableCell>{formatDate(p.createdAt)}</TableCell>
                  <TableCell>
                    <Badge variant={state.variant}>{state.label}</Badge>
                  </TableCell>
                  <TableCell>
                    <DropdownMenu>
                      <DropdownMenuTrigger asChild>
                        <Button variant="ghost" size="icon" aria-label={`Actions for ${p.email}`}>
                          <MoreHorizontal />
                        </Button>
                      </DropdownMenuTrigger>
                      <DropdownMenuContent className="min-w-40">
                        {actionsFor(p, selfId).map(({ action, label }) => (
                          <DropdownMenuItem key={action} onSelect={() => run(p, action)}>
                            {label}
                          </DropdownMenuItem>
                        ))}
                        <DropdownMenuItem onSelect={() => setResetFor(p)}>
                          Password reset link
                        </DropdownMenuItem>
                      </DropdownMenuContent>
                    </DropdownMenu>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {accounts.data?.users.length === 0 && (
          <p className="text-center text-sm text-muted-foreground">No accounts match.</p>
        )}
        {pages > 1 && (
          <div className="flex items-center justify-end gap-2 text-sm">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        )}
      </CardContent>
      <ResetLinkDialog person={resetFor} onClose={() => setResetFor(null)} />
    </Card>
  );
}
