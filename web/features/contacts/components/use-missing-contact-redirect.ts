import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * A contact that cannot be loaded: the spec's error, then /contacts (decision 000: not '/'). A contact that is not
 * there (deleted, or another user's) says it may have been deleted; any other failure asks to try again.
 */
export function useMissingContactRedirect(error: Error | null): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!error) return;
    if (error instanceof ApiError && error.status === 404)
      toast.error('Error loading contact', {
        description: 'Could not load contact details. The contact may have been deleted.',
      });
    else toast.error('Error', { description: 'Could not load contact details. Please try again.' });
    void navigate('/contacts', { replace: true });
  }, [error, navigate]);
}
