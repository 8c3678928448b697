import type { InspectionEvent, Observer } from 'xstate';

let observer: Observer<InspectionEvent> | undefined;

/** Set once at start-up (dev builds with `?inspect` or VITE_INSPECT=1): every actor created after this reports to it. */
export function connectInspector(inspect: Observer<InspectionEvent> | undefined): void {
  observer = inspect;
}

/** The inspection observer every screen's actor is created with, or undefined when nobody inspects. */
export function inspector(): Observer<InspectionEvent> | undefined {
  return observer;
}
