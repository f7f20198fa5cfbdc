/**
 * The drawing of a table that the live table and the replayer share: the oval, a seat's plate, the
 * middle (caption, board, pots) and a bet in front of a seat. They draw what they are given and decide
 * nothing.
 */
import type { CSSProperties, ReactNode } from 'react';
import type { SeatSpot } from '../layout';
import { CardRow } from './Card';

/** The oval and what sits on it. */
export function FeltOval({ children }: { children: ReactNode }) {
  return (
    <div className="oval-wrap">
      <div className="oval" />
      {children}
    </div>
  );
}

/**
 * Where a seat's plate goes: its own box moved by as much of its size as its spot is of the table's, so
 * that a seat at the edge lies along it, inside the table's box, whatever its cards and words: no seat
 * hangs over the table's head, the action bar, the side panel or the screen's edge.
 */
export const seatStyle = (spot: SeatSpot): CSSProperties => ({
  left: `${spot.x}%`,
  top: `${spot.y}%`,
  transform: `translate(-${spot.x}%, -${spot.y}%)`,
});

export interface SeatCards {
  readonly cards: readonly string[];
  /** Stud: which cards are face up. */
  readonly up?: readonly boolean[];
  readonly height: number;
  readonly label: string;
  /** The cards of a winning hand, highlighted. */
  readonly best?: ReadonlySet<string>;
}

/** A taken seat: cards, then the plate with the name, stack, status and result. */
export function SeatPlate({
  seatNumber,
  label,
  name,
  stack,
  stackTestId,
  cards,
  fourColour,
  status,
  won,
  handName,
  me = false,
  acting = false,
  folded = false,
  dealer = false,
  spot,
  children,
}: {
  seatNumber: number;
  /** The name as plain text, for the seat's accessible name and `data-name`. */
  label: string;
  /** The name as drawn (badges, note tags). */
  name: ReactNode;
  stack: string;
  stackTestId?: string;
  cards: SeatCards | null;
  fourColour: boolean;
  status: string | null;
  /** "Wins …" when he took chips in the hand just finished. */
  won: string | null;
  /** His hand, named, once shown. */
  handName: string | null;
  me?: boolean;
  acting?: boolean;
  folded?: boolean;
  /** The dealer button is at this seat. */
  dealer?: boolean;
  spot: SeatSpot;
  children?: ReactNode;
}) {
  const classes = ['seat', me ? 'me' : '', acting ? 'acting' : '', folded ? 'folded' : '', won ? 'won' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      style={seatStyle(spot)}
      data-seat={seatNumber}
      data-name={label}
      aria-label={`Seat ${seatNumber + 1}: ${label}`}
      role="group"
    >
      {cards !== null && cards.cards.length > 0 ? (
        <CardRow
          cards={cards.cards}
          {...(cards.up === undefined ? {} : { up: cards.up })}
          {...(cards.best === undefined ? {} : { best: cards.best })}
          height={cards.height}
          fourColour={fourColour}
          label={cards.label}
        />
      ) : null}
      <div className="seat-box">
        {dealer ? <DealerButton seatNumber={seatNumber} spot={spot} /> : null}
        <div className="name">{name}</div>
        <div className="stack" {...(stackTestId === undefined ? {} : { 'data-testid': stackTestId })}>
          {stack}
        </div>
        {status === null ? null : <div className="status">{status}</div>}
        {won === null ? null : <div className="winner">{won}</div>}
        {handName === null ? null : (
          <div className="hand-name" data-testid={`hand-name-${seatNumber}`}>
            {handName}
          </div>
        )}
        {children}
      </div>
    </div>
  );
}

/**
 * The dealer button, on a seat's plate: on its side toward the middle and level with it, so never over
 * anybody's cards (the cards are above the plate).
 */
export function DealerButton({ seatNumber, spot }: { seatNumber: number; spot: SeatSpot }) {
  return (
    <div
      className={spot.x > 50 ? 'dealer-button inward-left' : 'dealer-button'}
      role="img"
      aria-label={`Dealer button at seat ${seatNumber + 1}`}
    >
      D
    </div>
  );
}

/** The middle of the table: what is going on, the board, the pots. */
export function TableCentre({
  notice,
  caption,
  board,
  boardLabel,
  secondBoard,
  fourColour,
  best,
  pots,
}: {
  /** Shown above the caption (the room's pause). */
  notice?: ReactNode;
  caption: string;
  /** Null: a game without community cards. */
  board: readonly string[] | null;
  boardLabel: string;
  /** A hand run twice: the second run's board, drawn under the first. */
  secondBoard?: readonly string[] | null;
  fourColour: boolean;
  best?: ReadonlySet<string>;
  /** The pot's total first, then the main and side pots when they are shown. */
  pots: readonly { readonly text: string; readonly testId?: string; readonly index?: number }[];
}) {
  return (
    <div className="centre">
      {notice}
      <span className="hand-no">{caption}</span>
      {board === null ? null : (
        <CardRow
          cards={board}
          height={secondBoard == null ? 64 : 48}
          fourColour={fourColour}
          label={secondBoard == null ? boardLabel : 'First board'}
          {...(best === undefined ? {} : { best })}
        />
      )}
      {secondBoard == null ? null : (
        <CardRow cards={secondBoard} height={48} fourColour={fourColour} label="Second board" />
      )}
      <div className="pots" aria-label="Pots" data-testid="pots">
        {pots.map((pot, index) => (
          <span
            key={index}
            className="pot"
            {...(pot.testId === undefined ? {} : { 'data-testid': pot.testId })}
            {...(pot.index === undefined ? {} : { 'data-pot': pot.index })}
          >
            {pot.text}
          </span>
        ))}
      </div>
    </div>
  );
}

/** A seat's bet, in front of it toward the middle. */
export function BetChip({
  spot,
  amount,
  label,
  testId,
}: {
  spot: SeatSpot;
  amount: string;
  label: string;
  testId?: string;
}) {
  return (
    <div
      className="bet"
      style={{ left: `${spot.betX}%`, top: `${spot.betY}%` }}
      aria-label={label}
      {...(testId === undefined ? {} : { 'data-testid': testId })}
    >
      {amount}
    </div>
  );
}

/**
 * The chips of a finished hand going from the middle to a winner (a short CSS animation; none under
 * `prefers-reduced-motion`, where the winner's badge says it).
 */
export function ChipsToWinner({ spot, amount }: { spot: SeatSpot; amount: string }) {
  return (
    <div
      className="chips-to-winner"
      aria-hidden="true"
      style={{ '--to-x': `${spot.x}%`, '--to-y': `${spot.y}%` } as CSSProperties}
    >
      {amount}
    </div>
  );
}
