import type { IntegrityFindingView, IntegrityView } from '@felt/protocol';
import { useStore } from '../../hooks';
import { useReport } from './use-report';

const REPORTS = [
  ['seating', 'Seated together more than chance'],
  ['chipDumping', 'Chip flow without showdown (chip dumping)'],
  ['softPlay', 'Never raise each other heads-up (soft play)'],
  ['winRate', 'Win-rate outliers'],
] as const;

const count = (n: number, noun: string): string =>
  `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** Supporting hands listed per finding; the rest are counted. */
const HANDS_SHOWN = 12;

/** The game-security reports over every stored hand (as `felt admin integrity`), with their hands. */
export function Security({ onHand }: { onHand: (handId: number) => void }) {
  const store = useStore();
  const {
    value: report,
    busy,
    run,
  } = useReport(async () => (await store.staff('staff-integrity'))?.report ?? null);
  return (
    <section aria-label="Game security">
      <button type="button" className="primary" disabled={busy} onClick={run}>
        {busy ? 'Reading every hand…' : 'Run the reports'}
      </button>
      {report === null ? null : <Reports report={report} onHand={onHand} />}
    </section>
  );
}

/** The four reports: what each flagged, with its players, its p-value and its first hands as links. */
export function Reports({ report, onHand }: { report: IntegrityView; onHand: (handId: number) => void }) {
  return (
    <div data-testid="integrity">
      <p className="meta">
        {count(report.hands, 'hand')} of {count(report.players, 'player')} read
        {report.unreadable > 0 ? ` (${report.unreadable} unreadable)` : ''}; each report flags at most a{' '}
        {report.alpha * 100} % false alarm on honest play.
      </p>
      {REPORTS.map(([key, title]) => (
        <article key={key} className="panel" data-testid={`report-${key}`}>
          <h3>
            {title}: {report[key].length === 0 ? 'nothing flagged' : `${report[key].length} flagged`}
          </h3>
          {report[key].length === 0 ? null : (
            <ul>
              {report[key].map((finding) => (
                <Finding key={finding.players.map((p) => p.id).join('-')} finding={finding} onHand={onHand} />
              ))}
            </ul>
          )}
        </article>
      ))}
    </div>
  );
}

function Finding({ finding, onHand }: { finding: IntegrityFindingView; onHand: (handId: number) => void }) {
  return (
    <li>
      <b>{finding.players.map((player) => player.name).join(' → ')}</b> p = {finding.pValue.toExponential(1)}{' '}
      (threshold {finding.threshold.toExponential(1)}), {finding.handCount} hands:{' '}
      {finding.hands.slice(0, HANDS_SHOWN).map((handId) => (
        <button
          key={handId}
          type="button"
          className="link"
          onClick={() => {
            onHand(handId);
          }}
        >
          #{handId}
        </button>
      ))}
      {finding.hands.length > HANDS_SHOWN ? ' …' : ''}
    </li>
  );
}
