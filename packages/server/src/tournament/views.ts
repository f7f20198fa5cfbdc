/**
 * A tournament as the protocol shows it: the tournament lobby's line (`summaryOf`) and the tournament
 * page (`detailOf`). Chips are each entrant's as of his table's last finished hand, so a hand in
 * progress shows nothing early.
 */
import type {
  TournamentDealView,
  TournamentDetail,
  TournamentPlace,
  TournamentSummary,
} from '@felt/protocol';
import type { Placed, TournamentDirector } from './director.js';
import { standings } from './standings.js';
import { seatsPerTable } from './structure.js';

/** The lobby's line as `account` (the one asking) sees it: whether he is an entrant. */
export function summaryOf(director: TournamentDirector, account: number): TournamentSummary {
  const def = director.def;
  return {
    tournamentId: director.id,
    name: def.name,
    kind: def.kind,
    games: def.games.map((g) => ({
      game: g.game as TournamentSummary['games'][number]['game'],
      structure: g.structure,
    })),
    currency: def.money,
    buyIn: def.buyIn,
    fee: def.fee,
    entrants: director.entrants,
    minEntrants: def.minEntrants,
    maxEntrants: def.maxEntrants,
    startsAt: def.kind === 'scheduled' ? (def.startsAt ?? null) : null,
    state: director.phase,
    playersLeft: director.playersLeft(),
    registered: director.standings().some((e) => e.ref.account === account),
  };
}

export const placeOf = (p: Placed): TournamentPlace => ({
  account: p.account,
  name: p.name,
  place: p.place,
  tied: p.tied,
  prize: p.prize,
});

export function detailOf(director: TournamentDirector, account: number): TournamentDetail {
  const def = director.def;
  const entrants = director.standings();
  const left = new Map(entrants.filter((e) => !e.out).map((e) => [String(e.ref.account), e.stack]));
  const rank = new Map(standings(left).map((s) => [s.player, s.rank]));
  return {
    ...summaryOf(director, account),
    startingChips: def.startingChips,
    seatsPerTable: seatsPerTable(def),
    levels: def.levels,
    levelLength: def.levelLength,
    breaks: def.breaks ?? null,
    level: director.level(),
    clock: director.clock(),
    prizes: director.prizeList(),
    rebuy: def.rebuy ?? null,
    addOn: def.addOn ?? null,
    reEntry: def.reEntry ?? null,
    players: entrants.map((e) => ({
      account: e.ref.account,
      name: e.ref.name,
      chips: e.out ? 0 : e.stack,
      rank: rank.get(String(e.ref.account)) ?? null,
      rebuys: e.rebuys,
      addOns: e.addOns,
      reEntries: e.reEntries,
    })),
    tables: director.tables().map((t) => ({ tableId: t.id, players: t.summary().seated })),
    results: director.results().map(placeOf),
    deal: dealOf(director),
  };
}

/** The deal open at the final table, each player with his chips, prize and answer; null when none is. */
export function dealOf(director: TournamentDirector): TournamentDealView | null {
  const deal = director.deal();
  if (deal === null) return null;
  const entrants = new Map(director.standings().map((e) => [e.ref.account, e]));
  return {
    kind: deal.kind,
    proposer: deal.proposer,
    expiresAt: deal.expiresAt,
    players: deal.players.map((account, i) => ({
      account,
      name: entrants.get(account)?.ref.name ?? '',
      chips: entrants.get(account)?.stack ?? 0,
      amount: deal.amounts?.[i] ?? null,
      accepted: deal.accepted.has(account),
    })),
  };
}
