import { lazy, Suspense, useEffect, useState } from 'react';
import { seatSpots, type SeatSpot } from '../layout';
import {
  amountText,
  CURRENCY_LABELS,
  formatMoney,
  gameFamily,
  gameName,
  hasBlinds,
  parseMoney,
  STRUCTURE_LABELS,
} from '../format';
import { useAppState, useNow, useStore } from '../hooks';
import { HIDDEN, type HandPlayerView, type SeatView, type TableView } from '../net/views';
import { potTotal, type ClockState, type TableModel } from '../state/table';
import { ActionBar } from './ActionBar';
import { Chat } from './Chat';
import { FairDeal } from './Fair';
import { BetChip, ChipsToWinner, DealerButton, FeltOval, SeatPlate, seatStyle, TableCentre } from './Felt';
import { resultOnFelt, type FeltResult } from '../felt-result';
import { History } from './History';
import { SeatName } from './Notes';
import { tournamentOfTable } from '../tournament';

/** The bar above a tournament table: loaded with the tournament pages' chunk, at a tournament table only. */
const TournamentBar = lazy(() => import('./tournament/TournamentBar'));
/** One open table: the oval with its seats, the board and pots, the player's controls and the hand's log. */
export function TableScreen({ tableId }: { tableId: string }) {
  const state = useAppState();
  const store = useStore();
  const table = state.tables[tableId];
  const [seatChoice, setSeatChoice] = useState<number | null>(null);
  const offer = state.offers[tableId];
  useEffect(() => {
    if (offer !== undefined) setSeatChoice(offer);
  }, [offer]);
  if (table === undefined) return null;
  const view = table.view;
  if (view === null) {
    return (
      <section aria-busy="true">
        <p>Opening table…</p>
      </section>
    );
  }
  const seated = view.you !== null;
  // At a tournament table the room seats the players: nobody takes or leaves a seat himself.
  const tournament = tournamentOfTable(tableId);
  const stakes = view.currency === 'real' ? `$${view.stakesText}` : view.stakesText;
  return (
    <section
      className="table-screen"
      aria-label={`Table ${view.name}`}
      data-table={view.tableId}
      data-game={view.game}
    >
      <div className="table-main">
        <div className="table-head">
          <h2>{view.name}</h2>
          <span className="meta">
            {gameName(view.game)} · {STRUCTURE_LABELS[view.structure] ?? view.structure} · {stakes}
            {` ${CURRENCY_LABELS[view.currency]}`}
          </span>
          <span className="spacer" />
          {seated || tournament !== null ? null : (
            <button
              type="button"
              onClick={() => {
                void store.closeTable(tableId);
              }}
            >
              Close table
            </button>
          )}
        </div>
        {tournament === null ? null : (
          <Suspense fallback={null}>
            <TournamentBar tableId={tableId} tournamentId={tournament} />
          </Suspense>
        )}
        <Oval
          table={table}
          view={view}
          fourColour={state.prefs.fourColour}
          onSit={tournament === null ? setSeatChoice : null}
        />
        {seated ? (
          <ActionBar table={table} view={view} prefs={state.prefs} />
        ) : seatChoice !== null ? (
          <BuyIn
            view={view}
            seat={seatChoice}
            balance={
              view.currency === 'real'
                ? (state.session?.balances.real ?? 0)
                : (state.session?.balances.play ?? 0)
            }
            onDone={() => {
              setSeatChoice(null);
            }}
          />
        ) : (
          <p className="meta">
            {tournament === null ? 'You are watching. Pick a free seat to play.' : 'You are watching.'}
          </p>
        )}
      </div>
      <aside className="side-panel">
        <Results table={table} view={view} />
        <div className="panel">
          <h3 id={`log-${tableId}`}>This hand</h3>
          <ol className="log" aria-labelledby={`log-${tableId}`} aria-live="polite" data-testid="hand-log">
            {table.log.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ol>
        </div>
        <Chat tableId={tableId} seated={seated} />
        <FairDeal table={table} view={view} />
        <History tableId={tableId} />
      </aside>
    </section>
  );
}

/** An operator paused the table (the console's pause or drain): no hand starts until he resumes it. */
function PausedNote() {
  return (
    <span className="hand-no" role="status" data-testid="paused">
      Paused by the room
    </span>
  );
}

function Oval({
  table,
  view,
  fourColour,
  onSit,
}: {
  table: TableModel;
  view: TableView;
  fourColour: boolean;
  onSit: ((seat: number) => void) | null;
}) {
  const spots = seatSpots(view.seatCount, view.you ?? 0);
  // Between hands, the last one stays on the table: its board, shown cards and winners.
  const hand = view.hand ?? table.lastHand;
  const family = gameFamily(view.game);
  const pot = hand === null ? 0 : potTotal(hand);
  const bets = hand === null || hand.phase === 'done' ? 0 : hand.players.reduce((sum, p) => sum + p.bet, 0);
  // The pot is every chip of the hand, the bets in front included (the sum of the engine's pots). The
  // server's pots split it by who can win them: shown once somebody is all in (side pots), while the
  // view still has them (chips moving since the last view leave it without).
  const sidePots =
    hand !== null && hand.phase !== 'done' && hand.pots.length > 1 && hand.players.some((p) => p.allIn);
  // Stud has antes and a bring-in: no button.
  const button = hasBlinds(view.game) ? view.button : null;
  const result = resultOnFelt(table.summary, hand);
  return (
    <FeltOval>
      {hand === null ? (
        <div className="centre">
          {view.paused ? <PausedNote /> : null}
          <span className="hand-no">Waiting for players…</span>
        </div>
      ) : (
        <TableCentre
          {...(view.paused ? { notice: <PausedNote /> } : {})}
          caption={`Hand #${hand.number} · ${phaseName(table.legal?.discard != null ? 'draw' : hand.phase)}`}
          board={hand.board.length > 0 || family === 'flop' ? hand.board : null}
          boardLabel={view.game === 'telesina' ? 'Vela (community card)' : 'Board'}
          secondBoard={hand.secondBoard}
          fourColour={fourColour}
          {...(result === null ? {} : { best: result.best })}
          pots={
            // Nothing in the middle before the first chip and once the chips went to the winners.
            hand.phase === 'done' || pot + bets === 0
              ? []
              : [
                  { text: `Pot ${formatMoney(pot + bets, view.currency)}`, testId: 'pot-total' },
                  ...(sidePots
                    ? hand.pots.map((entry, index) => ({
                        text: `${index === 0 ? 'Main pot' : `Side pot ${index}`} ${formatMoney(entry.amount, view.currency)}`,
                        index,
                      }))
                    : []),
                ]
          }
        />
      )}
      {spots.map((spot, seatNumber) => {
        const seat = view.seats[seatNumber] ?? null;
        const player = hand?.players.find((entry) => entry.seat === seatNumber) ?? null;
        return (
          <div key={seatNumber}>
            <Seat
              seatNumber={seatNumber}
              seat={seat}
              player={player}
              view={view}
              table={table}
              fourColour={fourColour}
              spot={spot}
              result={result}
              dealer={button === seatNumber}
              onSit={onSit}
            />
            {player !== null && player.bet > 0 && hand?.phase !== 'done' ? (
              <BetChip
                spot={spot}
                amount={formatMoney(player.bet, view.currency)}
                label={`${seat?.name ?? 'Seat'} bets ${formatMoney(player.bet, view.currency)}`}
                testId={`bet-${seatNumber}`}
              />
            ) : null}
          </div>
        );
      })}
      {result === null
        ? null
        : Object.entries(table.won).map(([seat, amount]) => {
            const spot = spots[Number(seat)];
            return spot === undefined ? null : (
              <ChipsToWinner
                key={`${result.number}-${seat}`}
                spot={spot}
                amount={formatMoney(amount, view.currency)}
              />
            );
          })}
    </FeltOval>
  );
}

function phaseName(phase: string): string {
  switch (phase) {
    case 'draw':
      return 'draw';
    case 'showdown':
      return 'showdown';
    case 'split':
      return 'split offer';
    case 'done':
      return 'finished';
    default:
      return 'betting';
  }
}

function Seat({
  seatNumber,
  seat,
  player,
  view,
  table,
  fourColour,
  spot,
  result,
  dealer,
  onSit,
}: {
  seatNumber: number;
  seat: SeatView | null;
  player: HandPlayerView | null;
  view: TableView;
  table: TableModel;
  fourColour: boolean;
  spot: SeatSpot;
  result: FeltResult | null;
  dealer: boolean;
  onSit: ((seat: number) => void) | null;
}) {
  if (seat === null) {
    return (
      <div className="seat empty" style={seatStyle(spot)} data-seat={seatNumber}>
        <div className="seat-box">
          {dealer ? <DealerButton seatNumber={seatNumber} spot={spot} /> : null}
          {view.you === null && onSit !== null ? (
            <button
              type="button"
              className="link"
              aria-label={`Sit at seat ${seatNumber + 1}`}
              onClick={() => {
                onSit(seatNumber);
              }}
            >
              Sit here
            </button>
          ) : (
            <span className="status">Seat {seatNumber + 1}</span>
          )}
        </div>
      </div>
    );
  }
  const me = view.you === seatNumber;
  const acting = view.hand?.actor === seatNumber && view.hand.phase !== 'done';
  const stack = player?.stack ?? seat.stack;
  const won = table.won[seatNumber];
  const status = player?.allIn
    ? 'All in'
    : player?.folded
      ? table.mucked.includes(seatNumber)
        ? 'Mucked'
        : 'Folded'
      : view.blindRequest?.seat === seatNumber
        ? 'Posting blind?'
        : !seat.connected
          ? 'Disconnected'
          : seat.status === 'sitting-out'
            ? 'Sitting out'
            : seat.status === 'waiting'
              ? 'Waiting for big blind'
              : seat.status === 'leaving'
                ? 'Leaving'
                : seat.missed.big || seat.missed.small
                  ? 'Missed blinds'
                  : null;
  const best = result?.bestBySeat.get(seatNumber);
  return (
    <SeatPlate
      seatNumber={seatNumber}
      label={seat.name}
      name={
        <>
          {seat.bot ? (
            <span className="bot-badge" title="House bot">
              BOT
            </span>
          ) : null}
          {me || seat.bot ? seat.name : <SeatName account={seat.account} name={seat.name} />}
        </>
      }
      stack={formatMoney(stack, view.currency)}
      stackTestId={`stack-${seatNumber}`}
      cards={
        player === null
          ? null
          : {
              cards: player.cards,
              ...(gameFamily(view.game) === 'stud' ? { up: player.up } : {}),
              height: me ? 56 : 46,
              label: me ? 'Your cards' : `${seat.name}'s cards`,
              ...(best === undefined ? {} : { best }),
            }
      }
      fourColour={fourColour}
      status={status}
      won={won === undefined ? null : `Wins ${formatMoney(won, view.currency)}`}
      handName={result?.names.get(seatNumber) ?? null}
      me={me}
      acting={acting}
      folded={player?.folded ?? false}
      dealer={dealer}
      spot={spot}
    >
      {acting && table.clock?.seat === seatNumber ? <ClockBar clock={table.clock} /> : null}
    </SeatPlate>
  );
}

/**
 * The action clock, then the time bank once it has run out: a bar of another colour that says "Time bank"
 * and counts its seconds down, so that it is not taken for the action clock.
 */
export function ClockBar({ clock }: { clock: ClockState }) {
  const now = useNow(true);
  const left = clock.deadline - now;
  const bank = left <= 0;
  const fraction = bank
    ? Math.max(0, (clock.timeBankMs + left) / Math.max(1, clock.timeBankMs))
    : Math.min(1, left / Math.max(1, clock.actionMs));
  const seconds = Math.max(0, Math.ceil((bank ? clock.timeBankMs + left : left) / 1000));
  return (
    <div
      className={bank ? 'clock bank' : 'clock'}
      role="progressbar"
      aria-label={bank ? 'Time bank' : 'Action clock'}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(fraction * 100)}
      aria-valuetext={`${seconds} seconds${bank ? ' of time bank' : ''} left`}
    >
      <div className="clock-track">
        <div style={{ width: `${fraction * 100}%` }} />
      </div>
      {bank ? <span className="clock-text">Time bank {seconds} s</span> : null}
    </div>
  );
}

function BuyIn({
  view,
  seat,
  balance,
  onDone,
}: {
  view: TableView;
  seat: number;
  balance: number;
  onDone: () => void;
}) {
  const store = useStore();
  const max = view.maxBuyIn ?? Math.max(view.minBuyIn, Math.min(balance, view.minBuyIn * 5));
  // null while the box holds no amount: nothing is sent rather than an amount typed before.
  const [amount, setAmount] = useState<number | null>(() => Math.max(view.minBuyIn, Math.min(max, balance)));
  const [text, setText] = useState(() =>
    amountText(Math.max(view.minBuyIn, Math.min(max, balance)), view.currency),
  );
  const [post, setPost] = useState<'post' | 'wait'>('post');
  const [autoPost, setAutoPost] = useState(true);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="action-bar buy-in"
      aria-label="Buy in"
      onSubmit={(event) => {
        event.preventDefault();
        if (amount === null) return;
        setBusy(true);
        void store.takeSeat(view.tableId, seat, amount, post, autoPost).then((ok) => {
          setBusy(false);
          if (ok) onDone();
        });
      }}
    >
      <span>
        Seat {seat + 1}: buy in ({formatMoney(view.minBuyIn, view.currency)}
        {view.maxBuyIn === null ? ' or more' : ` – ${formatMoney(view.maxBuyIn, view.currency)}`})
      </span>
      <input
        type="text"
        inputMode="decimal"
        aria-label="Buy-in amount"
        aria-invalid={amount === null}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setAmount(parseMoney(event.target.value, view.currency));
        }}
      />
      {hasBlinds(view.game) ? (
        <>
          <label className="inline">
            <input
              type="radio"
              name="post"
              checked={post === 'post'}
              onChange={() => {
                setPost('post');
              }}
            />{' '}
            Post a big blind and play now
          </label>
          <label className="inline">
            <input
              type="radio"
              name="post"
              checked={post === 'wait'}
              onChange={() => {
                setPost('wait');
              }}
            />{' '}
            Wait for the big blind
          </label>
          <label className="inline">
            <input
              type="checkbox"
              checked={autoPost}
              onChange={(event) => {
                setAutoPost(event.target.checked);
              }}
            />{' '}
            Auto-post blinds
          </label>
        </>
      ) : null}
      <button type="submit" className="primary" disabled={busy || amount === null}>
        Take seat
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function Results({ table, view }: { table: TableModel; view: TableView }) {
  const store = useStore();
  const summary = table.summary;
  if (summary === null) return null;
  const name = (seat: number) =>
    summary.players.find((p) => p.seat === seat)?.name ?? view.seats[seat]?.name ?? `Seat ${seat + 1}`;
  // A player dealt in may ask to see the hands mucked at the showdown (RULES.md §1).
  const dealtIn = summary.players.some((p) => p.seat === view.you);
  const hiddenMucks = dealtIn && summary.players.some((p) => p.mucked && p.cards.includes(HIDDEN));
  return (
    <div className="panel results" aria-labelledby={`results-${view.tableId}`} data-testid="results">
      <h3 id={`results-${view.tableId}`}>Hand #{summary.number} result</h3>
      <ul>
        {summary.awards.map((award, index) => (
          <li key={index}>
            <b>{name(award.seat)}</b> wins {formatMoney(award.amount, view.currency)}
            {award.share === 'high'
              ? ' (high half)'
              : award.share === 'low'
                ? ' (low half)'
                : award.share === 'agreed'
                  ? ' (split)'
                  : ''}
            {summary.awards.some((a) => a.pot > 0)
              ? award.pot === 0
                ? ' · main pot'
                : ` · side pot ${award.pot}`
              : ''}
          </li>
        ))}
      </ul>
      <ul>
        {summary.players
          .filter((p) => p.high !== null || p.low !== null)
          .map((p) => (
            <li key={p.seat}>
              {p.name}: {p.high?.name ?? ''}
              {p.low === null ? '' : `${p.high === null ? '' : ' · '}Low: ${p.low.name}`}
            </li>
          ))}
      </ul>
      <details>
        <summary>Summary</summary>
        <table className="lobby-table">
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">Cards</th>
              <th scope="col" className="num">
                Bet
              </th>
              <th scope="col" className="num">
                Won
              </th>
            </tr>
          </thead>
          <tbody>
            {summary.players.map((p) => (
              <tr key={p.seat}>
                <td>{p.name}</td>
                <td>
                  {p.cards.join(' ')}
                  {p.mucked ? ' (mucked)' : ''}
                </td>
                <td className="num">{formatMoney(p.committed, view.currency)}</td>
                <td className="num">{formatMoney(p.won, view.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {summary.secondBoard !== null ? (
          <p>
            Run twice: first board {summary.board.join(' ')}, second board {summary.secondBoard.join(' ')}
          </p>
        ) : summary.board.length > 0 ? (
          <p>Board: {summary.board.join(' ')}</p>
        ) : null}
        {hiddenMucks ? (
          <button
            type="button"
            onClick={() => {
              void store.askSummary(view.tableId);
            }}
          >
            Show mucked hands
          </button>
        ) : null}
        {summary.rake > 0 ? <p>Rake: {formatMoney(summary.rake, view.currency)}</p> : null}
      </details>
    </div>
  );
}
