import { Clock } from 'lucide-react';
import { PENDING_APPROVAL_TEXT } from '#domain/auth/auth-messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useSignOut } from '../api/use-sign-out.ts';

/** What a pending account sees everywhere (route guard). Approval moves them on by itself. */
export function PendingApprovalScreen({ email }: { email: string }) {
  const handleSignOut = useSignOut();
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <Clock className="size-10 text-yellow-500" aria-hidden />
          <CardTitle>Account Pending Approval</CardTitle>
          <CardDescription>Signed in as {email}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">{PENDING_APPROVAL_TEXT}</p>
          <p className="text-sm text-muted-foreground">
            This page opens the app by itself as soon as you are approved.
          </p>
          <Button variant="outline" onClick={() => void handleSignOut()}>
            Sign Out
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
