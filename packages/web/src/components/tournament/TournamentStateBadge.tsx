import type { TournamentSummary } from '@felt/protocol';

const STATE_LABELS = {
  registering: 'Registering',
  running: 'Running',
  finished: 'Finished',
  cancelled: 'Cancelled',
} as const;

/** The tournament's state, and whether he is in it. */
export function TournamentStateBadge({ summary }: { summary: TournamentSummary }) {
  return (
    <span className="tournament-state" data-state={summary.state}>
      {STATE_LABELS[summary.state]}
      {summary.registered ? <span className="badge registered">registered</span> : null}
    </span>
  );
}
