import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

/** A missing or foreign contact: the spec's error, then /contacts (decision 000: not '/'). */
export function useMissingContactRedirect(failed: boolean): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!failed) return;
    toast.error('Error', { description: 'Could not load contact details. Please try again.' });
    void navigate('/contacts', { replace: true });
  }, [failed, navigate]);
}
