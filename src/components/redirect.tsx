import { useEffect } from 'react';
import { useLocation } from 'wouter';

/** Replaces the current screen with `to` once rendered (wouter's own Redirect navigates during render). */
export function Redirect({ to }: { to: string }) {
  const [, navigate] = useLocation();
  useEffect(() => navigate(to), [navigate, to]);
  return null;
}
