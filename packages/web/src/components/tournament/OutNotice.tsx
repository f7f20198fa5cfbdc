import type { Currency, TournamentPlace } from '@felt/protocol';
import { formatMoney } from '../../format';
import { ordinal } from '../../tournament';

/** His place and prize, as the room told him (`tournament-out`). */
export function OutNotice({ place, currency }: { place: TournamentPlace; currency: Currency }) {
  const won = place.place === 1 && place.tied === 1;
  const shared = place.tied > 1 ? ` (shared by ${String(place.tied)} players)` : '';
  return (
    <p className={won ? 'tournament-out won' : 'tournament-out'} role="status" data-testid="tournament-out">
      {won ? 'You won the tournament!' : `You finished ${ordinal(place.place)}${shared}.`}{' '}
      {place.prize > 0 ? `Your prize: ${formatMoney(place.prize, currency)}.` : 'No prize this time.'}
    </p>
  );
}
