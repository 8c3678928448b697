import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { RefreshCw } from 'lucide-react';
import type { AccountDetail, HealthCheckAnswer } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { Button } from '../../components/button';
import { useResource } from '../../components/use-resource';

interface HealthCheckButtonProps {
  accountId: number;
  /** The profile as the check left it, shown at once. */
  onChecked: (account: AccountDetail) => void;
}

/**
 * Checks the profile's health now, as the schedule would (its proxy, one read per platform switched
 * on), and waits for the answer; the server says why when it will not (a check already running, or
 * one just made).
 */
export function HealthCheckButton({ accountId, onChecked }: HealthCheckButtonProps) {
  const checked = useCallback(
    (output: unknown) => {
      const { account, unread } = output as HealthCheckAnswer;
      onChecked(account);
      if (unread.length === 0) toast.success(t.health.checked);
      else toast(t.health.checkedExcept(unread.map((platform) => t.platform.names[platform])));
    },
    [onChecked],
  );
  const check = useResource('health-check', null, { onSaved: checked });
  return (
    <Button
      variant="secondary"
      disabled={check.saving}
      aria-busy={check.saving}
      onClick={() => check.save({ method: 'POST', path: `/accounts/${accountId}/health-check` })}
    >
      <RefreshCw size={16} aria-hidden /> {check.saving ? t.health.checking : t.health.checkNow}
    </Button>
  );
}
