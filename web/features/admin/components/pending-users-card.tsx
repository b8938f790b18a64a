import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { useAccountAction, usePendingUsers } from '../api/admin-queries.ts';
import { formatDate } from '../../../lib/dates.ts';
import { displayName } from './account-display.ts';

/** The pending users table with Approve and Deny (admin, admin messages). */
export function PendingUsersCard() {
  const pending = usePendingUsers();
  const action = useAccountAction();

  const decide = (userId: string, kind: 'approve' | 'deny', email: string) =>
    action.mutate(
      { action: kind, userId },
      {
        onSuccess: () =>
          kind === 'approve'
            ? toast.success('User approved', {
                description: `${email} can now use the app; a notice was sent.`,
              })
            : toast.success('User denied', { description: `${email} can no longer sign in.` }),
        onError: (error) =>
          toast.error(kind === 'approve' ? 'Error approving user' : 'Error denying user', {
            description: error.message,
          }),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending Approval</CardTitle>
        <CardDescription>New accounts wait here until you approve or deny them.</CardDescription>
      </CardHeader>
      <CardContent>
        {pending.isPending ? (
          <Spinner />
        ) : pending.data && pending.data.length > 0 ? (
          <Table aria-label="Pending users">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Registration Date</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {pending.data.map((user) => (
                <TableRow key={user.id}>
                  <TableCell>{displayName(user)}</TableCell>
                  <TableCell>{user.email}</TableCell>
                  <TableCell>{formatDate(user.createdAt)}</TableCell>
                  <TableCell>
                    <Badge variant="yellow">Pending</Badge>
                  </TableCell>
                  <TableCell className="flex gap-2">
                    <Button
                      size="sm"
                      onClick={() => decide(user.id, 'approve', user.email)}
                      disabled={action.isPending}
                      aria-label={`Approve ${user.email}`}
                    >
                      Approve
                    </Button>
                    <Button
                      size="sm"
                      variant="destructive"
                      onClick={() => decide(user.id, 'deny', user.email)}
                      disabled={action.isPending}
                      aria-label={`Deny ${user.email}`}
                    >
                      Deny
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="py-6 text-center text-sm text-muted-foreground">No users are waiting for approval.</p>
        )}
      </CardContent>
    </Card>
  );
}
