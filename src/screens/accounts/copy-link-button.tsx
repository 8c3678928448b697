import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { Link2 } from 'lucide-react';
import type { ConnectYouTubeResponse } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { Button } from '../../components/button';
import { useResource } from '../../components/use-resource';

/** Copies the Google consent link of a saved profile; the server says why when it cannot make one. */
export function CopyLinkButton({ accountId }: { accountId: number }) {
  const copy = useCallback((output: unknown) => {
    navigator.clipboard.writeText((output as ConnectYouTubeResponse).url).then(
      () => toast.success(t.accountForm.linkCopied),
      () => toast.error(t.accountForm.linkCopyFailed),
    );
  }, []);
  const link = useResource('youtube-link', null, { onSaved: copy });
  return (
    <Button
      variant="secondary"
      disabled={link.saving}
      onClick={() =>
        link.save({ method: 'POST', path: `/accounts/connect-youtube/${accountId}`, failureText: t.accountForm.linkCopyFailed })
      }
    >
      <Link2 size={16} aria-hidden /> {t.accountForm.copyLink}
    </Button>
  );
}
