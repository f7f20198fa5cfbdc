import { formatCard, rankOf, suitOf } from '@felt/engine/browser';
import { memo } from 'react';
import { cardName, RANK_TEXT, readCard, suitColour } from '../cards';
import type { CardView } from '../net/views';

/** Suit pips as paths in a 100×100 box: no font is needed, so they look the same everywhere. */
export const SUIT_PATHS = [
  // clubs: three leaves and a stem
  'M50 6a20 20 0 0 1 17 31a20 20 0 1 1 -9 34l6 23h-28l6 -23a20 20 0 1 1 -9 -34a20 20 0 0 1 17 -31z',
  // diamonds
  'M50 4 L88 50 L50 96 L12 50 Z',
  // hearts
  'M50 92 C18 66 4 50 4 31 C4 15 16 6 28 6 C38 6 46 12 50 22 C54 12 62 6 72 6 C84 6 96 15 96 31 C96 50 82 66 50 92 Z',
  // spades
  'M50 4 C62 24 94 40 94 62 C94 76 84 84 73 84 C65 84 58 80 55 74 L60 96 H40 L45 74 C42 80 35 84 27 84 C16 84 6 76 6 62 C6 40 38 24 50 4 Z',
] as const;

export interface CardProps {
  /** The card's text ("As"), or "??" for one the viewer may not see. */
  readonly card: CardView;
  /** Height in CSS pixels (width is 5/7 of it). */
  readonly height?: number;
  readonly fourColour?: boolean;
  /** Stud: a card dealt face down that only its owner sees face up. */
  readonly down?: boolean;
  readonly selected?: boolean;
  readonly dim?: boolean;
  readonly className?: string;
}

/** One playing card drawn as SVG: a big corner index (readable down to ~30 px high) and a centre pip. */
export const Card = memo(function Card({
  card: text,
  height = 72,
  fourColour = false,
  down = false,
  selected = false,
  dim = false,
  className,
}: CardProps) {
  const width = Math.round((height * 5) / 7);
  const classes = ['card', selected ? 'card-selected' : '', dim ? 'card-dim' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  const card = readCard(text);
  if (card === null) {
    return (
      <svg
        className={`${classes} card-back`}
        width={width}
        height={height}
        viewBox="0 0 50 70"
        role="img"
        aria-label="face-down card"
        data-card="??"
      >
        <defs>
          <pattern
            id="felt-back"
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill="#1d3f8a" />
            <rect width="3" height="6" fill="#2a56b0" />
          </pattern>
        </defs>
        <rect x="0.5" y="0.5" width="49" height="69" rx="4" fill="#fff" stroke="#8a8a8a" />
        <rect x="3" y="3" width="44" height="64" rx="3" fill="url(#felt-back)" />
        <circle cx="25" cy="35" r="9" fill="#fff" opacity="0.9" />
        <text
          x="25"
          y="39.5"
          textAnchor="middle"
          fontSize="13"
          fontWeight="700"
          fill="#1d3f8a"
          fontFamily="sans-serif"
        >
          F
        </text>
      </svg>
    );
  }
  const colour = suitColour(card, fourColour);
  const rank = RANK_TEXT[rankOf(card)] ?? '?';
  const pip = SUIT_PATHS[suitOf(card)] ?? SUIT_PATHS[3];
  const label = down ? `${cardName(text)} (face down)` : cardName(text);
  return (
    <svg
      className={classes}
      width={width}
      height={height}
      viewBox="0 0 50 70"
      role="img"
      aria-label={label}
      data-card={formatCard(card)}
      data-down={down ? 'true' : undefined}
    >
      <rect
        x="0.5"
        y="0.5"
        width="49"
        height="69"
        rx="4"
        fill={fourColour ? tint(suitOf(card)) : '#fff'}
        stroke={selected ? '#f5b700' : '#8a8a8a'}
        strokeWidth={selected ? 2.5 : 1}
      />
      <text
        x={rank.length > 1 ? 2.5 : 4}
        y="21"
        fontSize={rank.length > 1 ? 19 : 22}
        fontWeight="700"
        fill={colour}
        fontFamily="'Helvetica Neue', Arial, sans-serif"
        letterSpacing={rank.length > 1 ? -1.5 : 0}
      >
        {rank}
      </text>
      <g transform="translate(5 25) scale(0.12)">
        <path d={pip} fill={colour} />
      </g>
      <g transform="translate(19 30) scale(0.28)">
        <path d={pip} fill={colour} />
      </g>
      {down ? <rect x="0.5" y="0.5" width="49" height="69" rx="4" fill="#000" opacity="0.12" /> : null}
    </svg>
  );
});

/** Four-colour decks get a faint tint of the suit's colour so suits differ even without colour vision of the pip. */
function tint(suit: number): string {
  switch (suit) {
    case 0:
      return '#f1faf3';
    case 1:
      return '#f0f5fd';
    case 2:
      return '#fdf1f2';
    default:
      return '#ffffff';
  }
}

export interface CardRowProps {
  readonly cards: readonly CardView[];
  /** Per card: dealt face up (stud). Missing = as `allUp`. */
  readonly up?: readonly boolean[];
  readonly height?: number;
  readonly fourColour?: boolean;
  readonly label: string;
  readonly selected?: ReadonlySet<number>;
  readonly onToggle?: (index: number) => void;
  readonly disabled?: boolean;
  /** A winning hand's cards (their texts): raised and outlined, the others of the row dimmed. */
  readonly best?: ReadonlySet<string>;
}

/** A row of cards; with `onToggle`, each card is a toggle button (draw games: pick discards). */
export function CardRow({
  cards,
  up,
  height,
  fourColour,
  label,
  selected,
  onToggle,
  disabled,
  best,
}: CardRowProps) {
  return (
    <div className="card-row" role="group" aria-label={label}>
      {cards.map((card, index) => {
        const isDown = up !== undefined && up[index] === false && readCard(card) !== null;
        const face = (
          <Card
            card={card}
            {...(height === undefined ? {} : { height })}
            fourColour={fourColour ?? false}
            down={isDown}
            selected={selected?.has(index) ?? false}
            dim={best !== undefined && best.size > 0 && !best.has(card)}
          />
        );
        if (onToggle === undefined) {
          const slot = ['card-slot', isDown ? 'card-slot-down' : '', best?.has(card) ? 'card-best' : '']
            .filter(Boolean)
            .join(' ');
          return (
            <span key={index} className={slot} {...(best?.has(card) ? { 'data-best': 'true' } : {})}>
              {face}
            </span>
          );
        }
        const picked = selected?.has(index) ?? false;
        return (
          <button
            key={index}
            type="button"
            className="card-slot card-pick"
            aria-pressed={picked}
            aria-label={`Discard ${cardName(card)}`}
            disabled={disabled}
            onClick={() => {
              onToggle(index);
            }}
          >
            {face}
          </button>
        );
      })}
    </div>
  );
}
